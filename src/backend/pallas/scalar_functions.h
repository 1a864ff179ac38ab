// The Python spelling of an elementwise intrinsic on static numbers (host code, trace-time
// values): the math module or a builtin. Shared by the Pallas module's and the reference's
// printers, which both print host code the same way.
#pragma once

#include <string_view>

#include "ir/nodes.h"

namespace helionc::backend::pallas {

// "math.exp", "abs", ...; empty when the intrinsic has no such spelling.
std::string_view scalar_function(ir::Intrinsic op);

}  // namespace helionc::backend::pallas
