#include "passes/vmem_fallback.h"

#include "passes/kept_blocks.h"

namespace helionc::passes {

std::optional<std::vector<LoopStrategy>> vmem_fallback(const Launch& launch,
                                                       const std::vector<LoopStrategy>& chosen) {
  std::vector<LoopStrategy> fallback = chosen;
  bool changed = false;
  for (size_t i = 0; i < chosen.size() && i < launch.inner_loops.size(); ++i) {
    if (chosen[i] != LoopStrategy::kUnroll) continue;
    for (LoopStrategy candidate : kUnrollFallbacks) {
      if (launch.inner_loops[i].reason_against(candidate).empty()) {
        fallback[i] = candidate;
        changed = true;
        break;
      }
    }
  }
  if (!changed) return std::nullopt;
  return fallback;
}

std::vector<int> shrinkable_blocks(const ir::Kernel& kernel, const Launch& launch) {
  std::vector<int> positions;
  if (launch.variadic || reads_block_numbering(kernel)) return positions;
  for (size_t g = 0; g < launch.grid.size(); ++g) {
    const ir::TileDim& dim = kernel.tile_dims[launch.grid[g].tile_dim];
    if (dim.block.kind != ir::BlockSource::Kind::kTunable) continue;
    const auto tunable = static_cast<size_t>(dim.block.tunable);
    if (tunable < kernel.tunable_block_ranges.size() &&
        kernel.tunable_block_ranges[tunable].min != nullptr) {
      continue;
    }
    // A registered block size read as a value was computed once, before the launch.
    if (kernel.block_value_binding(dim.block.tunable) >= 0) continue;
    // Halving one of two paired blocks would break their equality (_paired_blocks).
    if (launch.grid[g].from_begin) continue;
    positions.push_back(static_cast<int>(g));
  }
  return positions;
}

}  // namespace helionc::passes
