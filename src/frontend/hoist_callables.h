// Calls of callable parameters that run on the host after the kernel instead of in it.
#pragma once

#include "ir/nodes.h"

namespace helionc::frontend {

// Moves each call of a callable parameter whose result a launch stores directly into a fresh
// output (`out[tile_m, tile_n] = epilogue(acc, (tile_m, tile_n))`, casts allowed) after the
// launch: the kernel stores `acc` into the output allocated in acc's dtype, and the host
// rebinds the output's name to the call on that whole array, with whole-axis tiles, cast to
// the output's dtype. Only where this computes what the kernel computes with blocks spanning
// each loop (README, "Callable parameters"); other calls stay in the kernel.
void hoist_callable_stores(ir::Kernel& kernel);

}  // namespace helionc::frontend
