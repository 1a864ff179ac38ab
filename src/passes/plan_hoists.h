// Loop-invariant values computed once before an inner loop (issue 26). Part of the schedule
// pass.
//
// A value an inner loop's body computes from values defined before the loop is the same at
// every step (flash attention's `q_scaled = q * qk_scale`, with `q` loaded before the loop and
// `qk_scale` a host float). Where the loop is a loop in the kernel body, the module computes it
// once, before the loop, and the step function reads it (closed over, as it reads `q`).
//
// The rule (invariant_values), for every way of writing such a value. A `let` directly in the
// loop's body (not inside an `if` or a nested loop of the body) moves whole when its value
// - reads no binding the body defines (the loop's tiles, the values it carries, anything bound
//   in the body at any depth), except values hoisted before it: chains of invariant work move
//   together (`s = q * scale; t = s.to(bf16)`);
// - names none of the loop's tile dimensions (a tile attribute, an index, a block shape);
// - has no side effect and the same result each time it runs: no random draw, no `print`, no
//   callable parameter (its body is unknown);
// - loads only from arrays the body stores nothing into (a load of one it stores may see the
//   step before's store);
// - binds no name the loop carries (the carried name's `next`: printed before the loop it would
//   overwrite the name's value before the loop starts).
// Of any other `let` or store directly in the body, the largest parts of its value that obey
// the same rule and do arithmetic on a block (an operator, a math function, a cast, a
// reduction, a product; not a splat or iota, nor shape ops alone such as `tile.index[:, None]`
// or a load, which cost no more at each step than a held block) move, under
// a name of their own: `hl.dot(q * qk_scale, k.T)`, `torch.mul(q, qk_scale)` inlined. Any pure
// work qualifies, reductions and products included (an invariant product is rare; it is pure,
// so it moves too).
//
// Where it applies (hoisted_values), measured by libtpu's final bundles per block step (tpu7x,
// attention at 512 x 512 blocks, 8,192 keys; tests/bench/static_cycles.py):
// - `fori_loop` and `emit_pipeline` run the loop as a `jax.lax.fori_loop` or a pipeline's step
//   function over blocks they copy from HBM: a value computed before it is computed once per
//   outer block. fori_loop 1,049 -> 987 (D = 128) and 1,603 -> 1,506 (D = 256); emit_pipeline
//   922 -> 908 and 1,372 -> 1,300.
//   At D = 64: fori_loop 1,064 -> 982, emit_pipeline 906 -> 908.
// - `unroll` runs a `fori_loop` too, over windows of blocks resident in VMEM, but there holding
//   the value across the loop cost more than it saved at D = 64 and 128 (996 -> 1,049;
//   1,025 -> 1,066; 1,559 -> 1,454 at D = 256; why was not traced in the bundles). Nothing moves
//   under `unroll`: the regression at the common head sizes outweighs the gain at the larger.
// - Under `grid` the loop is a grid axis: the statements before it already run again at every
//   grid step (kernel_printer.cpp, grid_steps), so a value moved there would be computed once
//   per step just the same; computing it once per outer block needs a VMEM scratch buffer
//   written at the first step and read at every other. Measured by hand on the generated module
//   (`q_scaled` in scratch, written under the first step's `pl.when`): 1,134 -> 1,135 (D = 128)
//   and 1,629 -> 1,638 (D = 256), the load costing what the work did. Nothing moves under
//   `grid`.
//
// A zero-trip loop now computes the hoisted values once for nothing: they are pure, and unused.
// Masks of partial blocks are unchanged: a hoisted value's shape has none of the loop's tile
// dimensions, and its definition mask along an outer dimension (plan_padding.h) is printed with
// it. The value is live across the whole loop: the VMEM accounting counts one copy of each
// (vmem_formula.h, hoisted_values_vmem).
#pragma once

#include <vector>

#include "passes/launch_plan.h"
#include "passes/loop_strategy.h"
#include "passes/schedule.h"

namespace helionc::ir {
struct TileLoop;
}  // namespace helionc::ir

namespace helionc::passes {

// The values of `loop`'s body that are the same at every step, in the body's order (see above).
std::vector<HoistedValue> invariant_values(const ir::TileLoop& loop);

// Whether a loop run under `strategy` computes its invariant values once, before it: under
// `fori_loop` and `emit_pipeline` (see above).
bool hoists_invariants(LoopStrategy strategy);

// Per inner loop of `launch` (Launch::inner_loops), the values computed once before it under
// `strategies`.
std::vector<std::vector<HoistedValue>> hoisted_values(const Launch& launch,
                                                      const std::vector<LoopStrategy>& strategies);

// The work of the values `schedule` moves before inner loops (LaunchSchedule::hoisted), as the
// launch's cost counts it (LaunchCost: in the loop, at each of its steps) and as it runs (in the
// loop around it, or the launch's body): the resource accounting takes the first from the
// launch's cost and adds the second.
struct HoistedWork {
  LaunchCost in_loop;
  LaunchCost before_loop;
};
HoistedWork hoisted_work(const Launch& launch, const LaunchSchedule& schedule);

}  // namespace helionc::passes
