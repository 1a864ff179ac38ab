// Host values under concrete arguments: the sizes and dtypes the host code of a kernel computes
// when it is called with tensors of given shapes and dtypes (`m, k = x.size()`,
// `torch.empty([m, n], dtype=x.dtype)`). The generated module learns them only while JAX
// traces; resource accounting (launch_resources.h) and `--emit report` need them at compile
// time for the shapes a config entry or `--shapes` names. Values the host code computes in
// ways this evaluator does not follow (scalar arguments, data it cannot see) are nullopt.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "ir/nodes.h"
#include "passes/shape_facts.h"

namespace helionc::passes {

// Python's integer arithmetic on two known values (+, -, *, //, %), nullopt on overflow, a
// division by zero or another operator. The host evaluator and the inner-loop trip counts
// (inner_trips.h) fold bounds with it.
std::optional<int64_t> fold_int_binary(ir::BinaryOp op, int64_t lhs, int64_t rhs);

struct ConcreteTensor {
  std::vector<int64_t> shape;
  ir::ScalarType dtype = ir::ScalarType::kFloat32;
};

class HostValues {
 public:
  // `args`: tensor parameters by binding (Kernel::params[i].binding).
  HostValues(const ir::Kernel& kernel, std::map<int, ConcreteTensor> args);

  const ir::Kernel& kernel() const { return kernel_; }
  const ShapeFacts& facts() const { return facts_; }
  std::optional<int64_t> int_value(const ir::ExprPtr& expr) const;
  std::optional<int64_t> axis_size(int tensor_binding, int axis) const;
  std::optional<ir::ScalarType> dtype(int tensor_binding) const;
  // An optional tensor parameter (`torch.Tensor | None`) the call leaves out.
  bool absent_optional(int binding) const;
  // The values of the kernel's `hl.register_tunable` keys under a config (by
  // Kernel::user_tunables index); without them each takes its fragment's default.
  void set_tunable_values(std::vector<int64_t> values) { tunable_values_ = std::move(values); }

 private:
  std::optional<int64_t> resolve(const SizeKey& key) const;
  std::optional<int64_t> shape_element(const ir::ExprPtr& shape, int axis, int depth) const;
  std::optional<int64_t> reshaped_axis(const ir::Call& reshape, int axis, int depth) const;
  std::optional<int64_t> eval_int(const ir::ExprPtr& expr, int depth) const;
  std::optional<ir::ScalarType> eval_dtype(const ir::ExprPtr& expr, int depth) const;
  std::optional<ir::ScalarType> binding_dtype(int binding, int depth) const;

  const ir::Kernel& kernel_;
  ShapeFacts facts_;
  std::map<int, ConcreteTensor> args_;
  std::vector<int64_t> tunable_values_;
};

}  // namespace helionc::passes
