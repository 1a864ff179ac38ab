// PyTorch's typing rules as the frontend applies them: the result type of arithmetic between
// static scalars, whole tensors and tile tensors (broadcasting, promotion, Python scalars that do
// not widen a tensor), and how a shape prints in diagnostics.
#pragma once

#include <optional>
#include <string>

#include "ir/nodes.h"

namespace helionc::frontend {

enum class ArithKind { kArithmetic, kTrueDivide, kComparison, kLogical, kBitwise };

// The broadcast of two tile-tensor shapes, or nullopt when they are incompatible. A static
// scalar (empty dims) broadcasts against anything.
std::optional<std::vector<ir::Dim>> broadcast_dims(const std::vector<ir::Dim>& a,
                                                   const std::vector<ir::Dim>& b);

// The dtype of `a op b` when both are known; a Python scalar operand (nullopt dtype with
// `scalar_kind`) keeps the tensor's dtype except that a float scalar makes an integer tensor
// float32, as in torch.result_type.
std::optional<ir::ScalarType> result_dtype(const ir::Type& a, const ir::Type& b, ArithKind kind);

// The dtype of a float-valued math function of `x` (exp, sqrt, sigmoid, ...): integers and bool
// become float32, floats keep their width, unknown stays unknown.
std::optional<ir::ScalarType> float_math_dtype(const ir::Type& x);

// "[tile_m, tile_n]" / "[tile_m, :]" using the kernel's names, for diagnostics.
std::string dims_to_string(const ir::Kernel& kernel, const std::vector<ir::Dim>& dims);

}  // namespace helionc::frontend
