// Gather patterns for launch planning that read a better array than the one indexed. Part of
// plan_launches.
#pragma once

#include <map>
#include <optional>

#include "ir/nodes.h"
#include "passes/launch_plan.h"
#include "passes/shape_facts.h"

namespace helionc::passes {

struct FlatPick {
  int base = -1;    // the 2-D array
  ir::Index index;  // `[tile, gather col]` into it
};

// A gather from a flat view (`flat = x.view(-1)`, `binding`) at `tile.index * n + col`, with n
// provably x's row length, `tile` a tile of the launch (`grid_axis`: tile dim -> grid axis) and
// `col` one index per row: the same elements as `x[tile, col]` picked row by row, which the
// kernel reads with whole rows of x (Helion's cross-entropy example). `device_values` resolves
// names bound in the body (`flat_indices = base + labels_tile`).
std::optional<FlatPick> flat_pick(const ir::Kernel& kernel, const ShapeFacts& facts, int binding,
                                  const ir::Index& index,
                                  const std::map<int, ir::ExprPtr>& device_values,
                                  const std::map<int, int>& grid_axis);

// A row gather `w[ids[tile_b], tile_e]` (also `w[ids[tile_b], :]`, `w[ids[tile_b]]`) whose
// rows can be copied one by one from HBM by DMA, for tables too large for the one-hot path: the
// table is 2-D, its other axis a tile of the launch's own loop or whole, and the indices a 1-D
// integer array read at one tile of the launch's own loop (`ids[tile_b]`), so that the kernel
// can read index r of the block as a scalar, `ids_smem[tile_b_start + r]`, from a whole copy of
// `ids` in SMEM. Which path runs is decided at trace time from the sizes
// (`_gather_plan` in templates/helper_gather.py.tmpl); the kernel gets both.
struct DmaGather {
  int input = -1;              // the table's input (Launch::inputs)
  int axis = -1;               // its gathered view axis
  int ids_binding = -1;        // the indices' array
  ir::Index ids_index;         // `[tile_b]`
  SourceRange range;           // the indices' load
  std::vector<int> tile_dims;  // the tiles whose block positions the copies need
};

// The row gathers of a launch whose operands are built that can copy their rows by DMA.
std::vector<DmaGather> dma_gathers(const ir::Kernel& kernel, const Launch& launch);

}  // namespace helionc::passes
