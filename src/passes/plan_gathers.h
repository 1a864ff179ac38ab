// Gather patterns for launch planning that read a better array than the one indexed. Part of
// plan_launches.
#pragma once

#include <map>
#include <optional>

#include "ir/nodes.h"
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

}  // namespace helionc::passes
