// A block's position divided in device code (`tile.begin // M`, `tile.end % M`) depends on the
// block size, and the module may widen a config's or the source's block to one legal on a TPU
// (a lane axis takes multiples of 128): the quotient would then change silently. Such a kernel
// is refused unless the module keeps the block exactly (passes/kept_blocks.h: a fixed block
// whose numbering or bounds a scalar index reads, a registered block whose value it reads).
// Runs after inline-index-scalars, so that `h_kv = tile_h.begin // groups` read by an index
// counts as the scalar index it becomes (test_indexing's `attention` divides a position into a
// loop bound instead, and is refused).
#pragma once

#include "ir/nodes.h"
#include "support/diagnostics.h"

namespace helionc::passes {

// Reports the first such division of each kernel of `module`; false when it reported one.
bool refuse_block_positions(const ir::Module& module, DiagnosticEngine& diags);

}  // namespace helionc::passes
