// Which inner-loop strategies (pallas-target.md §5) apply to each inner loop of a launch, and
// why the others do not. The compiler refuses a config that asks for a strategy that does not
// apply, quoting the reason; the autotuner skips it. Part of plan_launches.
#pragma once

#include "passes/launch_plan.h"

namespace helionc::passes {

// Fills `InnerLoop::not_applicable` for every inner loop of `launch`.
void judge_loop_strategies(const ir::Kernel& kernel, Launch& launch);

// The strategy of an inner loop that no config chooses, the one rule for every caller: a grid
// axis where that applies (Pallas pipelines the loop's blocks from HBM), else the operands stay
// resident in VMEM (`unroll`, which applies to every loop).
LoopStrategy default_strategy(const InnerLoop& loop);

}  // namespace helionc::passes
