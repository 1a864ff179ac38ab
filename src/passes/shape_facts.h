// What the host code says about array shapes, symbolically: which sizes are provably equal.
// `m, n = x.size()`, `out = torch.empty_like(x)` and `hl.tile([m, n])` make the loop's extents
// and out's dimensions the same sizes, which is how the planner knows that a loop writes all of
// `out` (no aliased input needed) without knowing any shape before trace time.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "ir/nodes.h"

namespace helionc::passes {

// A size in canonical form: a constant, axis `axis` of the arrays whose shape is `root`'s, or
// an opaque value equal only to itself.
struct SizeKey {
  enum class Kind { kConst, kAxis, kOpaque };
  Kind kind = Kind::kOpaque;
  int64_t value = 0;             // kConst
  int root = -1;                 // kAxis: a binding whose shape stands for a group of arrays
  int axis = -1;                 // kAxis
  const void* opaque = nullptr;  // kOpaque: the node (or binding marker) it stands for

  bool operator==(const SizeKey& other) const = default;
};

class ShapeFacts {
 public:
  explicit ShapeFacts(const ir::Kernel& kernel);

  // The binding whose shape `binding`'s shape is (`empty_like`, `broadcast_tensors`
  // results, `torch.empty(x.shape)` all share their source's root).
  int shape_root(int binding) const;
  // Axis `axis` (>= 0) of the array bound as `binding`.
  SizeKey axis_size(int binding, int axis) const;
  // An int-typed host expression.
  SizeKey size_of(const ir::ExprPtr& expr) const;
  // The root of a shape-typed host expression (`x.size()`, a binding of one), if known.
  std::optional<int> shape_root_of(const ir::ExprPtr& expr) const;

  // Whether two sizes are equal: the same canonical size, or sizes the kernel's top-level
  // `assert a == b` statements equate (the module checks them before any launch, so they hold
  // wherever a kernel runs). Chains (`a == b == c`, `and`) count; only the kernel printer's
  // mask decisions use this, the planner's shape reasoning does not.
  bool equal_sizes(const SizeKey& a, const SizeKey& b) const;

  // The statement that defines `binding` (Let or Alloc), or null (parameters, loop variables).
  const ir::Stmt* definition(int binding) const;
  // The position of `binding` among the targets of its Let.
  int target_index(int binding) const;

 private:
  void add_definitions(const ir::Block& host_block);
  void add_asserted_equalities(const ir::ExprPtr& condition);
  static bool is_flat(const ir::ExprPtr& shape);  // `(-1,)`
  std::optional<SizeKey> size_from_shape_expr(const ir::ExprPtr& shape, int axis) const;

  const ir::Kernel& kernel_;
  std::map<int, const ir::Stmt*> definitions_;
  std::map<int, int> target_index_;
  // The first flat view (`x.view(-1)`) of each shape root: the root of all its flat views.
  mutable std::map<int, int> flat_roots_;
  std::vector<std::pair<SizeKey, SizeKey>> asserted_equal_;  // from top-level asserts
};

}  // namespace helionc::passes
