// The strategies a launch falls back to when the chosen ones need more VMEM than the target
// has (issue 10). The module decides while JAX traces, from the VMEM formulas of
// vmem_formula.h; this is the one place that says in which order (documented in README.md,
// "Trace-time VMEM fallback"):
//
//   every inner loop run `unroll` (its whole axis resident in VMEM) is run by the first of
//   `emit_pipeline`, `fori_loop` that applies to it (both stream blocks of the axis through a
//   few VMEM buffers); the other loops keep their strategies.
//
// Only `unroll` needs VMEM that grows with the loop's extent; the other strategies hold blocks,
// so a launch that does not fit under them has blocks (or whole axes) too large for any
// strategy, and the module reports it instead.
#pragma once

#include <optional>
#include <vector>

#include "passes/launch_plan.h"

namespace helionc::passes {

inline constexpr LoopStrategy kUnrollFallbacks[] = {LoopStrategy::kEmitPipeline,
                                                    LoopStrategy::kForiLoop};

// The fallback of `chosen` (one strategy per inner loop of `launch`), or nullopt when it runs no
// loop `unroll` or none of its `unroll` loops has an applicable fallback.
std::optional<std::vector<LoopStrategy>> vmem_fallback(const Launch& launch,
                                                       const std::vector<LoopStrategy>& chosen);

}  // namespace helionc::passes
