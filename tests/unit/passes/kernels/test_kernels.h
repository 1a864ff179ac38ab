// Kernels built by hand as the frontend would lower them, for the passes' and the backend's
// unit tests (no parsing involved). Each statement gets the source range of one line of a
// small fake source file, so source-line comments can be checked too.
#pragma once

#include <memory>
#include <string>

#include "ir/nodes.h"

namespace helionc::testing {

class KernelBuilder {
 public:
  explicit KernelBuilder(std::string name);

  ir::Kernel& kernel() { return kernel_; }
  // A range on 1-based line `line` of the fake file "k.py".
  SourceRange line(int line) const;
  const SourceFile& file() const { return *file_; }

  int param(const std::string& name, ir::Type type, ir::ExprPtr default_value = nullptr);
  int bind(const std::string& name, ir::Type type, ir::Binding::Origin origin);
  ir::ExprPtr ref(int binding) const;

  // `m, n = x.size()`; returns the first target.
  int unpack_shape(const std::vector<std::string>& names, int tensor, int line);
  // `out = torch.empty_like(x)` (fill null) or `torch.zeros_like(x)` (fill 0).
  int empty_like(const std::string& name, int like, int line, ir::ExprPtr fill = nullptr);
  // A tile dimension `name` over [0, extent) with tunable block `tunable` (-1: hl.grid).
  int tile_dim(const std::string& name, ir::ExprPtr extent, int tunable, bool variadic = false,
               ir::ExprPtr begin = nullptr);

  ir::ExprPtr load(int tensor, ir::Index index, std::vector<ir::Dim> dims, int line);
  ir::StmtPtr store(int tensor, ir::Index index, ir::ExprPtr value, int line);
  ir::ExprPtr binary(ir::BinaryOp op, ir::ExprPtr lhs, ir::ExprPtr rhs);
  ir::ExprPtr call(ir::Intrinsic op, std::vector<ir::ExprPtr> args);

  static ir::IndexItem tile(int dim);
  static ir::IndexItem full();
  static ir::IndexItem none();
  static ir::IndexItem scalar(ir::ExprPtr value);
  static ir::IndexItem variadic(int dim);

  ir::Module module();  // a module holding this kernel (the builder's file stays alive)

 private:
  std::shared_ptr<SourceFile> file_;
  ir::Kernel kernel_;
};

// The three kernels of the unit tests, as a module of one kernel each.
//
// add (samples/add.py without broadcasting):
//   out = torch.empty_like(x)
//   for tile in hl.tile(out.size()):
//       out[tile] = x[tile] + y[tile]
KernelBuilder add_kernel();
// bias_relu:
//   m, n = x.size()
//   out = torch.empty_like(x)
//   for tile_m, tile_n in hl.tile([m, n]):
//       out[tile_m, tile_n] = relu(x[tile_m, tile_n] + bias[tile_n])
KernelBuilder bias_relu_kernel();
// rows (hl.grid; a scalar index on the second-to-last axis, a float parameter):
//   m, n = x.size()
//   out = torch.zeros_like(x)
//   for i in hl.grid(m):
//       out[i, :] = x[i, :] * scale + w[None, :]
KernelBuilder rows_kernel();
// shifted (hl.tile(a, b)), into an `empty` (fill null) or initialised array:
//   out = torch.empty_like(x)  /  torch.zeros_like(x)
//   for tile in hl.tile(3, x.size(0)):
//       out[tile] = x[tile]
KernelBuilder shifted_kernel(ir::ExprPtr fill);

}  // namespace helionc::testing
