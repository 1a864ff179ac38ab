// The block size the generated module uses for a tile dimension, computed in C++: a mirror of
// templates/prelude.py.tmpl's `_default_block` and `_legal_block`, which pick it while JAX
// traces. Resource accounting (launch_resources.h) and the autotuner need the block the module
// will really use; tests/unit/passes/legal_block_test.cpp runs the prelude's Python on a table
// of cases and compares, so the two cannot drift apart unnoticed.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/dtype.h"
#include "passes/launch_plan.h"

namespace helionc::passes {

// The prelude's roles (`_BLOCK_MULTIPLES` keys): an axis role, or "flat" for a lane dimension
// with no tiled rows (GridDim::flat).
enum class BlockRole { kLeading, kSublane, kLane, kFlat };
std::string_view block_role_name(BlockRole role);  // "leading", "sublane", "lane", "flat"
BlockRole block_role(const GridDim& grid);

// `_default_block(size, role, other)`: the block used when a config gives none; `other` is
// the number of elements a block spans along whole (untiled) dimensions.
int64_t default_block(int64_t size, BlockRole role, int64_t other = 1);

// `_block_multiple(role, dtypes)`: the multiple of a block along axes of `role` of arrays of
// `dtypes`: 32 rows on the sublane axis of an 8-bit array (Mosaic tiles them (32, 128) and
// refuses smaller blocks), else the role's multiple (8 sublanes, 128 lanes).
int64_t block_multiple(BlockRole role, const std::vector<ir::ScalarType>& dtypes = {});

// `_legal_block(requested, size, role, other, axes, dtypes)`: `requested` (nullopt: the
// default) kept when legal, else the whole dimension when it is at least as large or no larger
// than the multiple, else rounded down to the multiple (at least one multiple). `axes`: the
// lengths of the array axes the blocks land on when they may differ (a loop over part of an
// input's axis); unless all equal `size`, the block is a multiple (legal on any axis).
// `dtypes`: those of the arrays whose sublane axis the blocks land on (block_multiple).
// `rows`: the rows the kernel reads of every block (ir::TileDim::window_rows); the default
// block then holds that many and leaves no shorter last block (the whole dimension if need be).
// Whether blocks of `block` along a dimension of `size` leave a block, the last one included,
// with fewer than `rows` rows: a window reading `rows` rows of every block
// (ir::TileDim::window_rows) could not be read from it.
bool leaves_short_block(int64_t block, int64_t size, int64_t rows);

int64_t legal_block(std::optional<int64_t> requested, int64_t size, BlockRole role,
                    int64_t other = 1, const std::vector<int64_t>& axes = {},
                    const std::vector<ir::ScalarType>& dtypes = {}, int64_t rows = 0);

class ShapeFacts;

// The array axes (binding, axis) the blocks of `grid` land on, one per length, when their
// lengths may differ (a loop over part of an input's axis: `x[:, :cols]`); empty when they are
// all the same. Their lengths are `legal_block`'s `axes`, in the module and in the accounting.
std::vector<std::pair<int, int>> differing_axes(const ShapeFacts& facts, const Launch& launch,
                                                const GridDim& grid);

// The operands whose sublane axis the blocks of `grid` land on (bindings, without repeats):
// their dtypes are `legal_block`'s `dtypes`.
std::vector<int> sublane_bindings(const Launch& launch, const GridDim& grid);

}  // namespace helionc::passes
