// The textual dump of the tile IR (`helionc --emit ir`, golden tests). Stable and readable:
// bindings print as `name` (or `name.N` when a Python name is rebound), each statement ends with
// the source line it came from.
#pragma once

#include <string>

#include "ir/nodes.h"

namespace helionc::ir {

std::string print_module(const Module& module);
std::string print_kernel(const Kernel& kernel);
// One expression (no trailing newline); bindings are named through `kernel`.
std::string print_expr(const Kernel& kernel, const ExprPtr& expr);
// A slice's bounds as written (`16:`, `:n`, `a:b`).
std::string print_slice_bounds(const Kernel& kernel, const SliceBounds& slice);

}  // namespace helionc::ir
