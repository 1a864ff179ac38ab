// The Python spelling of an elementwise intrinsic on static numbers (host code, trace-time
// values): the math module or a builtin. Shared by the Pallas module's and the reference's
// printers, which both print host code the same way.
#pragma once

#include <string_view>

#include "backend/pallas/py_expr.h"
#include "ir/nodes.h"

namespace helionc::backend::pallas {

// "math.exp", "abs", ...; empty when the intrinsic has no such spelling.
std::string_view scalar_function(ir::Intrinsic op);

// Helion's `next_power_of_2(n)` on a Python int: `1 << max(0, n - 1).bit_length()` (1 for
// n <= 1).
PyExpr next_power_of_2(const PyExpr& n);

}  // namespace helionc::backend::pallas
