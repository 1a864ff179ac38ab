// How many blocks an inner loop runs when its range moves with the outer tile: loops bounded by
// the outer tile's attributes (`hl.tile(0, tile_m.end)`, `hl.tile(max(tile_r.begin - w, 0),
// min(cols, tile_r.end))`) and loops whose steps past the diagonal are skipped (plan_skips.h).
// Part of the resource accounting (launch_resources.h): the work and the bytes of such a loop
// are those of the blocks it runs, not of the whole axis.
//
// The count follows the module: at each step of the outer tile the loop runs the blocks from
// `begin // block` to `cdiv(end, block)` (none when the range is empty), where the outer tile's
// `begin` is `step * block` and its `end` is clipped to its axis.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "ir/nodes.h"

namespace helionc::passes {

// One dimension of the launch's own loop at the call's sizes.
struct OuterTile {
  int tile_dim = -1;
  int64_t size = 0;   // elements of its axis
  int64_t block = 1;  // its block
};

// The inner loop's range as the module evaluates it at each outer step.
struct MovingRange {
  ir::ExprPtr begin;  // null: 0
  ir::ExprPtr end;    // null: `size`
  int64_t size = 0;   // the inner axis's elements: no range reaches past it
  int64_t block = 1;
  // Blocks whose first element lies past `outer.end - 1 + skip_offset` are skipped.
  std::optional<int64_t> skip_offset;
};

// The one outer tile dimension the range's bounds read (tile attributes), or -1: none, several,
// or attributes the count does not follow (`.index`).
int moving_outer_dim(const MovingRange& range);

// The blocks the loop runs over all steps of `outer`; nullopt when a bound reads what it cannot
// evaluate. `host_int` evaluates the parts of a bound that do not read the tile.
std::optional<int64_t> total_inner_blocks(
    const MovingRange& range, const OuterTile& outer,
    const std::function<std::optional<int64_t>(const ir::ExprPtr&)>& host_int);

}  // namespace helionc::passes
