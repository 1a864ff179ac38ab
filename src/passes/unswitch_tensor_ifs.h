// Unswitching: a static `if` in device code whose condition looks at a tensor argument itself
// (`if bias is not None:`) decides which arrays the launch takes, so it cannot stay inside
// the kernel. The pass moves it out of the loop: the loop is copied into both branches of a
// host `if`, each copy with the condition fixed to True or False (the backend prints only the
// branch taken). Conditions on plain static values (`if stable:`) stay in the kernel.
#pragma once

#include "ir/nodes.h"
#include "support/diagnostics.h"

namespace helionc::passes {

// Rewrites every kernel of `module`; returns false after reporting errors (none so far).
bool unswitch_tensor_ifs(ir::Module& module, DiagnosticEngine& diags);

}  // namespace helionc::passes
