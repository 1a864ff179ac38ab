// Scalars computed in the kernel and used as indices (`h_kv = tile_h.begin // 2` then
// `x[h_kv, tile_n]`; `b = bh // heads` under `hl.grid`): a name bound once in device code to
// integer arithmetic on tile attributes, `hl.grid` indices and host values is a function of the
// grid indices, so the pass writes its definition into every scalar index that reads it. Launch
// planning then treats `x[tile_h.begin // 2, tile_n]` as if written so: a BlockSpec index map
// computes it from the grid indices, or, when it reads an inner loop's tile, the kernel picks
// the element from a whole axis (plan_picks.h). A name bound more than once, carried by a loop,
// or computed from loaded values keeps its name, and launch planning refuses it as before.
#pragma once

#include "ir/nodes.h"
#include "support/diagnostics.h"

namespace helionc::passes {

// Rewrites every kernel of `module`; reports nothing (a name it cannot inline stays as it is).
bool inline_index_scalars(ir::Module& module, DiagnosticEngine& diags);

}  // namespace helionc::passes
