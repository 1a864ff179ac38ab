// Launch planning: every top-level tile loop of a kernel becomes one `pl.pallas_call`. Decides
// the grid, the operands (one per distinct array and index pattern; outputs that must keep old
// contents are also passed in, aliased), each operand's BlockSpec view under the TPU block
// rules, the host values the body captures, the block-rule role of every tile dimension and a
// cost estimate. See launch_plan.h for the result.
//
// What cannot be planned is reported at the IR node's source range as "... is not supported
// yet" (kUnsupported) and the kernel gets no plan.
#pragma once

#include <optional>

#include "ir/nodes.h"
#include "passes/launch_plan.h"
#include "support/diagnostics.h"

namespace helionc::passes {

std::optional<KernelPlan> plan_launches(const ir::Module& module, int kernel,
                                        DiagnosticEngine& diags);

}  // namespace helionc::passes
