// The names of supported torch/hl functions and tensor methods: those that map onto one
// elementwise operation (the ops table's spellings), operators, reductions and conversions.
// Everything with special argument handling lives in lower_calls.cpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/nodes.h"
#include "ops/operations.h"

namespace helionc::frontend {

// `torch.exp`, `torch.nn.functional.silu`, `torch.special.erf`, ... by qualified name: the
// unary operation of the ops table (ops/operations.def) it names, or nullptr.
const ops::Operation* unary_function(std::string_view qualified_name);
// `x.exp()`, `x.sigmoid()`, ... by method name (the table's `Tensor.` spellings).
const ops::Operation* unary_method(std::string_view method);
// `.float()`, `.bfloat16()`, ...: the dtype a conversion method names (64-bit ones excluded).
std::optional<ir::ScalarType> conversion_method(std::string_view method);
bool is_64bit_conversion_method(std::string_view method);  // `.long()`, `.double()`

// Python operators by spelling ("+", "//", "is not"); augmented assignments drop their `=`.
std::optional<ir::BinaryOp> binary_operator(std::string_view spelling);
std::optional<ir::CompareOp> compare_operator(std::string_view spelling);

// `sum`, `mean`, `amax`, `amin`, `prod`, `argmax`, `argmin` (methods and torch.* alike).
std::optional<ir::Intrinsic> reduction_function(std::string_view name);

// The qualified names of the torch, hl (`helion.language.*`), helion and math functions helionc
// lowers, for "did you mean `torch.exp`?" after a misspelled one (`torch.exmp`). The elementwise
// and reduction names come from the tables above; the special forms of lower_calls.cpp and the
// files beside it are listed by hand: a name missing here costs a suggestion, nothing else.
const std::vector<std::string_view>& known_function_names();
// The same for tensor and tile methods (`exp`, `sum`, `float`, `view`, ...), and "; did you mean
// `.sigmoid()`?" for the unknown method `sigmod`, or "".
const std::vector<std::string_view>& known_method_names();
std::string did_you_mean_method(std::string_view method);
// "; did you mean `torch.exp`?" for the unknown function `qualified` ("torch.exmp") written as
// `shown` in the source, or "" when no known function is close.
std::string did_you_mean_function(std::string_view qualified, std::string_view shown);

// Why a Helion function cannot run in a TPU kernel at all (GPU-only code), by qualified name;
// nullopt for every other function.
std::optional<std::string_view> gpu_only_reason(std::string_view qualified_name);

}  // namespace helionc::frontend
