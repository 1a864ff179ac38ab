// The Python spellings of the ops table's operations (ops/operations.def) and of host-code
// queries, shared by the Pallas module's and the reference's printers, which both print host
// code the same way.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backend/pallas/py_expr.h"
#include "ir/nodes.h"

namespace helionc::backend::pallas {

// A spelling of the ops table (its jnp, mosaic and scalar columns) over the printed operands:
// `f` is `f(operands...)`, `f(*, extra)` is `f(operands..., extra)`, and `2.0 ** *` or
// `1.0 / math.sqrt` are a literal and an operator before the operand or before a call on it.
PyExpr op_call(std::string_view spelling, const std::vector<PyExpr>& operands);
// Whether `spelling` needs the module to import math.
bool uses_math(std::string_view spelling);

// `x.stride(axis)` (`x.stride()` without one) as Python on the array's shape
// (`array` is its printed name): the strides of a row-major array of that shape, with PyTorch's
// rule that an axis of size 0 counts as 1. Uses `math.prod`.
std::string contiguous_stride_text(const std::string& array, std::optional<int64_t> axis);

// A host-code index of a whole array (Intrinsic::kHostIndex) as Python: `x[idx]`,
// `x[:, :-1]`; `array` is the indexed array's text, `text` prints one argument.
std::string host_index_text(const ir::Call& call, const std::string& array,
                            const std::function<std::string(const ir::ExprPtr&)>& text);

// A host-code store (Intrinsic::kHostIndexSet) as Python: `x.at[idx].set(value)`, which jnp
// casts to x's dtype as PyTorch's store does.
std::string host_index_set_text(const ir::Call& call, const std::string& array,
                                const std::function<std::string(const ir::ExprPtr&)>& text);

// Helion's `next_power_of_2(n)` on a Python int: `1 << max(0, n - 1).bit_length()` (1 for
// n <= 1).
PyExpr next_power_of_2(const PyExpr& n);

}  // namespace helionc::backend::pallas
