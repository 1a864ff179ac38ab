// The Python spelling of an elementwise intrinsic on static numbers (host code, trace-time
// values): the math module or a builtin. Shared by the Pallas module's and the reference's
// printers, which both print host code the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ir/nodes.h"

namespace helionc::backend::pallas {

// "math.exp", "abs", ...; empty when the intrinsic has no such spelling.
std::string_view scalar_function(ir::Intrinsic op);

// `x.stride(axis)` (`x.stride()` without one) as Python on the array's shape
// (`array` is its printed name): the strides of a row-major array of that shape, with PyTorch's
// rule that an axis of size 0 counts as 1. Uses `math.prod`.
std::string contiguous_stride_text(const std::string& array, std::optional<int64_t> axis);

}  // namespace helionc::backend::pallas
