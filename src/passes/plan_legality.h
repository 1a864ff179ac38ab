// Legality facts for launch planning (launch_plan.h, GridDim): which operand axes each tile
// dimension lands on and with which block-rule role, whether a dimension may run over only part
// of its axes, and which dimensions are flat (1-D tiles). Part of plan_launches.
#pragma once

#include "ir/nodes.h"
#include "passes/launch_plan.h"
#include "passes/shape_facts.h"

namespace helionc::passes {

// Whether tile dimension `dim` provably runs over all of axis `axis` of `binding`.
bool tile_covers(const ir::Kernel& kernel, const ShapeFacts& facts, int dim, int binding, int axis);

// Fills every GridDim's uses, role, partial, size_binding/size_axis and flat from the launch's
// operands (static views; rank-polymorphic operands count as lane uses).
void record_tile_uses(const ir::Kernel& kernel, const ShapeFacts& facts, Launch& launch);

}  // namespace helionc::passes
