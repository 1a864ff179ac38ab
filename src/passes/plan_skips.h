// Inner-loop steps that do nothing and can be skipped: the key blocks of a causal attention
// that lie entirely above the diagonal. Part of plan_launches.
//
// A step may be skipped when the loop body masks a value with `torch.where(cond, x, -inf)`
// where `cond` compares the index of the launch's own tile with the inner loop's
// (`tile_m.index + c >= tile_n.index`, c >= 0), and the body, evaluated with that value -inf
// everywhere, gives every carried value back unchanged (online softmax: the running max stays,
// exp(-inf) = 0 adds nothing to the sums and products, the rescale factor is exp(0) = 1). The
// evaluation (plan_skips.cpp) tracks a few facts per value (-inf, 0, 1, finite, "the carried
// value itself") and refuses anything it cannot follow. Its assumptions: the kernel's inputs are
// finite, and so are the carried values once the loop's first block was seen; the first block
// holds key 0, which the mask keeps for every query (c >= 0), and it is never skipped.
#pragma once

#include <cstdint>
#include <optional>

#include "passes/launch_plan.h"

namespace helionc::passes {

// Fills `InnerLoop::skip` for every inner loop of `launch` whose steps can be skipped.
void find_step_skips(const ir::Kernel& kernel, Launch& launch);

}  // namespace helionc::passes
