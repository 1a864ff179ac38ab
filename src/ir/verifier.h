// Structural checks of the tile IR, run after the frontend and after every pass in debug
// pipelines. A failure is a compiler bug, never a user error, so it returns messages that the
// driver reports as internal errors.
#pragma once

#include <string>
#include <vector>

#include "ir/nodes.h"

namespace helionc::ir {

// Returns one message per broken invariant (empty when the kernel is well formed).
std::vector<std::string> verify_kernel(const Kernel& kernel);

}  // namespace helionc::ir
