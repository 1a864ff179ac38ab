// Part of pass 2: stores that pick single elements of an output's axes (`out[i] = v` under
// `hl.grid`, `out[tile_m, n - 1] = v`, `out[0, tile] = a` then `out[1, tile] = b`). A block
// one lane wide is illegal on a TPU and one array gets one index pattern per launch, so such
// axes are whole in the output's block (ViewAxis::picked) and each store writes its elements
// with a select (`_put`); reads of the output pick theirs the same way (`_pick`). The block
// stays resident across the steps that share it (Output::revisiting_dims) and starts from the
// array's old contents (copied in at the first visit), so VMEM must hold whole picked axes.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "ir/nodes.h"

namespace helionc::passes {

struct PickedPattern {
  ir::Index index;             // the output's pattern: picked entries replaced by `:`
  std::vector<int> positions;  // the picked entries (array axes: no `None` in the stores)
};

// Whether an index scalar changes within one kernel invocation (`tile.begin` of an inner
// loop): no index map can hold it, so its axis is whole in the block and picked in the kernel.
using MovesInKernel = std::function<bool(const ir::ExprPtr&)>;

// The pattern of an output of static rank `rank` stored with `stores` (all its stores in one
// launch), when some entry must be picked: a scalar on the last axis, a scalar that moves in
// the kernel, or entries that differ between stores and are each a scalar, `:`, a tile or a
// tile of indices (`out[b, tile_n]` then `out[b, n - 1]`; `out[tile]` then `out[tile.index +
// k]`: those stores scatter). Nullopt when no entry is picked or the stores differ otherwise
// (slices, `None`, index lists of different lengths).
std::optional<PickedPattern> picked_pattern(const ir::Kernel& kernel,
                                            const std::vector<const ir::Index*>& stores, int rank,
                                            const MovesInKernel& moves_in_kernel);

// The pattern of a read of an input whose scalars move in the kernel (`x[(row.begin - 1) % 4,
// :]` in an inner loop over rows): those entries picked. Nullopt when none moves.
std::optional<PickedPattern> picked_read_pattern(const ir::Index& index,
                                                 const MovesInKernel& moves_in_kernel);

// `index` (a read of the output) with its picked entries replaced by `:`, or nullopt when one
// of them is neither a scalar nor `:`.
std::optional<ir::Index> unpicked_index(const ir::Index& index, const PickedPattern& pattern);

// A key that is equal for equal index entries.
std::string index_item_key(const ir::Kernel& kernel, const ir::IndexItem& item);

}  // namespace helionc::passes
