// Blocks whose size the kernel observes, so the module must use exactly the block it asks for
// instead of widening or rounding it to a TPU-legal one (`_legal_block`), and the trace-time
// VMEM fallback must not halve them:
//
//   - a block size fixed in the source (`hl.tile(n, block_size=64)`) of a loop whose
//     `tile.id` or `tile.count` the kernel reads: Helion numbers blocks of exactly that size,
//     and the host code sized its results for them (`torch.zeros([(n + 63) // 64])`);
//   - a block size fixed in the source of a loop whose `tile.begin` or `tile.end` a scalar
//     index reads (`scales[m, t.begin // 32] = v` under `hl.tile(n, block_size=32)`): one
//     element per block is read or written, so a wider block would skip elements;
//   - a block size fixed in the source of a loop whose `tile.block_size` arithmetic on arrays
//     reads as a number (`x[t] * t.block_size`): that number must be Helion's, the block the
//     source asks for, even where it exceeds the loop's length;
//   - a registered block size (`block_m = hl.register_block_size(m)`) whose value the kernel
//     reads as a number or size (`cdiv(m, block_m)` in host code, `tile.id * block_m` in
//     device code): its value is computed once where it is registered (the config's block,
//     legalised for the first loop that tiles with it), and every loop that tiles with it must
//     use that value.
//
// The module keeps such a block with `_kept_block` (templates/helper_kept_block.py.tmpl),
// which raises while JAX traces when the block is not legal for the loop's dimension, rather
// than computing with another block.
#pragma once

#include "ir/nodes.h"

namespace helionc::passes {

// Whether the kernel reads `tile.id` or `tile.count` of tile dimension `tile_dim` (of any
// dimension when `tile_dim` is -1).
bool reads_block_numbering(const ir::Kernel& kernel, int tile_dim = -1);

// Whether a scalar index of a load or store reads `tile.begin` or `tile.end` of tile dimension
// `tile_dim` (`out[tile.begin // 32]`): one element per block, so the block decides which.
bool indexes_with_block_bounds(const ir::Kernel& kernel, int tile_dim);

// Whether the kernel uses `tile.block_size` of tile dimension `tile_dim` as a number in
// arithmetic on arrays (`x[tile] * tile.block_size`), where Helion's value is the block size
// even on a partial tile or a block larger than the loop (`hl.tile(100, block_size=128)`).
bool reads_block_size_as_number(const ir::Kernel& kernel, int tile_dim);

// Whether the kernel observes where the blocks of `dim` start or how they are numbered (the
// cases above but `tile.block_size` as a number): Helion's blocks start at the loop's begin.
bool observes_block_positions(const ir::Kernel& kernel, const ir::TileDim& dim);

// Whether the kernel reads the block size of `dim` as a value: `tile.block_size` as a number
// under a block size fixed in the source, or a registered block size's value. Such a block
// must be the requested one even where it exceeds the loop's length (`_kept_block`'s `exact`).
bool reads_block_value(const ir::Kernel& kernel, const ir::TileDim& dim);

// Whether the module must keep the block it requests for `dim` (see above).
bool keeps_requested_block(const ir::Kernel& kernel, const ir::TileDim& dim);

// Whether that kept block is one element: `block_size=1` in the source, or a merged tile. On an
// array's second-to-last axis such a block is legal only as a leading axis (plan_views.h).
bool keeps_block_of_one(const ir::Kernel& kernel, const ir::TileDim& dim);

}  // namespace helionc::passes
