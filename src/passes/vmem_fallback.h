// The strategies a launch falls back to when the chosen ones need more VMEM than the target
// has. The module decides while JAX traces, from the VMEM formulas of vmem_formula.h; this is
// the one place that says in which order (documented in docs/guide/tuning.md, "Trace-time VMEM
// fallback"):
//
//   every inner loop run `unroll` (its whole axis resident in VMEM) is run by the first of
//   `emit_pipeline`, `fori_loop` that applies to it (both stream blocks of the axis through a
//   few VMEM buffers); the other loops keep their strategies.
//
// When no strategy fits (a launch holding whole axes, `x[tile_m, :]`, meets a longer one than
// it was tuned for), the module halves the launch's blocks, the largest first, until it fits
// or none gets smaller, and otherwise reports that nothing fits. Only blocks whose value the
// kernel cannot observe may shrink (shrinkable_blocks): the config's own, of a kernel that
// reads no `tile.id` or `tile.count` and not a registered block size the kernel reads as a
// value, so that a smaller block changes how the work is cut, not what it computes.
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

// The launch dimensions (Launch::grid positions) whose blocks the module may halve while JAX
// traces: blocks from `block_sizes` (not `block_size=` in the source, not `hl.grid`, not a
// range given with `hl.register_block_size`, whose minimum the module would have to keep), of a
// kernel that reads no `tile.id`/`tile.count` (whose values, and the shapes sized by them,
// follow the block), and not a registered block size whose value the kernel reads
// (passes/kept_blocks.h: the host code computed with it before the launch).
std::vector<int> shrinkable_blocks(const ir::Kernel& kernel, const Launch& launch);

}  // namespace helionc::passes
