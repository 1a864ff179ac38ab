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

// Whether the module must keep the block it requests for `dim` (see above).
bool keeps_requested_block(const ir::Kernel& kernel, const ir::TileDim& dim);

}  // namespace helionc::passes
