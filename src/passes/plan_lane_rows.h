// Row values held across lanes (issue 26). Part of the schedule pass.
//
// A reduction along a block's last axis leaves one value per row: Mosaic lays the result out
// along sublanes (a row per sublane), while a value of that shape computed any other way (a
// `full`, a carried statistic loaded from VMEM) lives along lanes. An online softmax mixes the
// two every step (`m_new = max(m, rowmax(s))`, `s - m_new[:, None]`, `acc * alpha[:, None]`),
// and the TPU compiler moves each row value between sublanes and lanes twice per step: on
// tpu7x at 512 x 512 blocks that was a third of the step's bundles. JAX's flash attention holds
// such statistics as (rows, 128) instead, every lane of a row holding the row's value: a
// reduction with keepdims broadcast over 128 lanes is already in that layout, elementwise work
// keeps it, and broadcasting it over a block of 128 k lanes copies whole registers.
//
// This pass picks the bindings of a launch's body to hold that way ("lane rows"): a value of
// shape (..., m), or (..., m, 1), is held as (..., m, 128). The rule, for every way of writing
// such a kernel:
// - a candidate is a floating-point block value defined in the body by a `let`, of a shape
//   lane_row_shape accepts;
// - its definition computes it from lane rows: a reduction along an operand's last axis (with
//   or without keepdim), a `full`, a unit last axis added or dropped (`m[..., None]`,
//   `m.squeeze(-1)`: the same rows), or elementwise work (operators, math functions, casts,
//   `where`) whose array operands all have its shape and are lane rows themselves (a scalar
//   operand is fine);
// - the names one variable takes through a loop's carry or an `if`'s merge are all lane rows or
//   none (they share one Python variable and one VMEM scratch);
// - a value with a definition mask (plan_padding.h) is not one (the mask's indices have the
//   value's own shape);
// - a connected group of lane rows is kept only if it holds a reduction (the layout comes from
//   there), one of its values, with a unit last axis, is an operand of an operator whose other
//   operand is a block of more lanes, and one is carried across an inner loop's steps in VMEM
//   scratch (`grid`, `emit_pipeline`): there the compiler moved the values between layouts at
//   every step. Values computed and used within a step, or carried in registers (`fori_loop`,
//   `unroll`), already stay in one layout: their static cycles were the same either way
//   (tpu7x: attention under `fori_loop` and `unroll`, layer and RMS norms, cross_entropy), while
//   their elementwise work would cover 128 lanes a row.
// Every other use of a lane row reads lane 0 of each row (`_row_values`, or `[..., :1]` for a
// unit last axis), so any consumer still sees the value's own shape.
#pragma once

#include <set>

#include "passes/launch_plan.h"
#include "passes/schedule.h"

namespace helionc::ir {
struct Binary;
struct Call;
struct Expr;
struct Type;
}  // namespace helionc::ir

namespace helionc::passes {

// The bindings of `launch`'s body held as lane rows under `schedule` (whose definition masks
// are planned).
std::set<int> plan_lane_rows(const ir::Kernel& kernel, const Launch& launch,
                             const LaunchSchedule& schedule);

// The elementwise work lane rows do beyond their own shape: each operation of a lane row's
// definition over 127 more lanes per row (the TPU issues it; the launch's LaunchCost counts
// the values' own elements). Reductions, fills and unit axes cost the same either way.
LaunchCost lane_row_cost(const Launch& launch, const std::set<int>& rows);

// Whether values of `type` can be lane rows: a block of rank 1 or more whose last axis is not a
// unit, or one whose last axis is a unit after one that is not (a reduction kept with keepdim,
// `m[..., None]`); both are held as the other axes and 128 lanes.
bool lane_row_shape(const ir::Type& type);

// Whether `expr` can be printed as a lane row, given the bindings that are (`rows`).
bool lane_row_value(const ir::Expr& expr, const std::set<int>& rows);

// Whether `expr` is a lane row value that reads some binding of `rows` (a value the printer
// writes as lane rows outside a binding's definition: `m[..., None]` and its operand).
bool reads_lane_rows(const ir::Expr& expr, const std::set<int>& rows);

// Whether `call` reduces its operand (of two axes or more, the last not a unit) along the last
// axis: the value a lane row is made of.
bool lane_row_reduction(const ir::Call& call);

// The operand of `call` when `call` appends a unit last axis to it or drops one (`x[..., None]`,
// `x.unsqueeze(-1)`, `x.squeeze(-1)`, `x.view(*x.shape, 1)`): the same lane rows. Else null.
const ir::Expr* unit_axis_operand(const ir::Call& call);

// The operand of `node` that is lane rows with a unit last axis reading `rows`, broadcast
// against the other operand's block (`s - m[:, :, None]`, `acc * alpha_keepdim`), or null.
const ir::Expr* lane_tiled_operand(const ir::Binary& node, const std::set<int>& rows);

}  // namespace helionc::passes
