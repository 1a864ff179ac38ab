// Cost estimates for launch planning: floating-point work and transcendentals per element of
// each value shape (LaunchCost). Part of plan_launches.
#pragma once

#include "ir/nodes.h"
#include "passes/launch_plan.h"

namespace helionc::passes {

// Adds the work of one expression of the body (not of its operands) to `cost`: tile-tensor
// operators and intrinsics count per element of the result, a matrix product 2 * M * N * K;
// scalars and loads cost nothing. `inner_loop`: the inner loop the expression runs in (CostTerm).
void count_cost(const ir::Expr& expr, LaunchCost& cost, int inner_loop = -1);

}  // namespace helionc::passes
