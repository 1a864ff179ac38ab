// Operand views for launch planning (launch_plan.h, "Operand views"): how the kernel sees an
// array read or written with one index pattern, under the TPU block rules (pallas-target.md
// §3). Part of plan_launches.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "passes/launch_plan.h"

namespace helionc::passes {

struct ViewError {
  SourceRange range;
  std::string message;
};

// Fills `operand.view` (and `reshaped`) from `operand.index` for an array of static rank `rank`
// named `name`: tiles, `:` and scalars map to array axes, `None` to unit axes; missing trailing
// axes are whole; a scalar on the last axis becomes a column window (ViewAxis::kColumn); a
// squeezed scalar axis second to last gets a squeezed unit axis after it; rank < 2 views get
// leading squeezed unit axes; roles are lane / sublane / leading by position. `store`: the
// operand is stored to, which may scatter through two tiles of indices (check_gather).
// `one_row(tile_dim)`: that tile's blocks are kept at one element (kept_blocks.h) and are grid
// steps: on the second-to-last axis, where a block of 1 is illegal, the tile's axis is squeezed
// and a unit axis after it holds the row, (m, n) -> (m, 1, n), so the kernel sees the same
// (1, n) block and the block index picks the row.
// Whether a store's `index` scatters through two tiles of indices into both axes of a 2-D
// array (the one form of two tiles of indices that a store supports).
bool cartesian_scatter(const ir::Index& index, int rank);

std::optional<ViewError> build_view(Operand& operand, int rank, const std::string& name,
                                    bool store = false,
                                    const std::function<bool(int)>& one_row = {});

// Whether every entry of `index` is a scalar (the read selects one element).
bool all_scalar(const ir::Index& index);

}  // namespace helionc::passes
