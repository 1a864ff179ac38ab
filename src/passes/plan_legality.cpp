#include "passes/plan_legality.h"

#include <algorithm>
#include <map>

#include "ir/visitor.h"

namespace helionc::passes {

bool tile_covers(const ir::Kernel& kernel, const ShapeFacts& facts, int dim, int binding,
                 int axis) {
  const ir::TileDim& tile = kernel.tile_dims[dim];
  if (ir::has_begin(tile)) return false;
  return facts.size_of(tile.extent) == facts.axis_size(binding, axis);
}

void record_tile_uses(const ir::Kernel& kernel, const ShapeFacts& facts, Launch& launch) {
  std::map<int, int> grid_axis;  // tile dim -> grid axis
  for (size_t g = 0; g < launch.grid.size(); ++g) {
    grid_axis[launch.grid[g].tile_dim] = static_cast<int>(g);
  }
  auto record = [&](const Operand& operand, bool output, int index) {
    if (operand.variadic) {
      launch.grid.front().uses.push_back({output, index, -1, AxisRole::kLane});
      return;
    }
    for (size_t a = 0; a < operand.view.size(); ++a) {
      const ViewAxis& axis = operand.view[a];
      if (axis.kind != ViewAxis::Kind::kTile) continue;
      GridDim& grid = launch.grid[grid_axis.at(axis.tile_dim)];
      grid.uses.push_back({output, index, static_cast<int>(a), axis.role});
      grid.role = std::max(grid.role, axis.role);
    }
  };
  for (size_t i = 0; i < launch.inputs.size(); ++i) {
    if (launch.inputs[i].kind != Input::Kind::kAliasedUnread) {
      record(launch.inputs[i].operand, false, static_cast<int>(i));
    }
  }
  for (size_t o = 0; o < launch.outputs.size(); ++o) {
    record(launch.outputs[o].operand, true, static_cast<int>(o));
  }
  // A dimension is partial when it may not run over exactly the axes it tiles: an output's
  // (its blocks then keep old values), or an input's longer than the loop (`x[:, :cols]` with
  // cols < n). Its block is then made legal for an output's axis (the loop's extent, so no
  // block is longer than needed) and for every other length its blocks land on
  // (differing_axes): a whole axis only where they are all equal.
  for (GridDim& grid : launch.grid) {
    if (launch.variadic) continue;
    const ir::TileDim& dim = kernel.tile_dims[grid.tile_dim];
    grid.partial = ir::has_begin(dim);
    const TileUse* size_use = nullptr;
    for (const TileUse& use : grid.uses) {
      const Operand& operand =
          use.output ? launch.outputs[use.operand].operand : launch.inputs[use.operand].operand;
      const int array_axis = operand.view[use.axis].array_axis;
      const bool covered = tile_covers(kernel, facts, grid.tile_dim, operand.binding, array_axis);
      if (!covered) grid.partial = true;
      if (size_use == nullptr || (use.output && !size_use->output)) size_use = &use;
    }
    if (size_use != nullptr) {
      const Operand& operand = size_use->output ? launch.outputs[size_use->operand].operand
                                                : launch.inputs[size_use->operand].operand;
      grid.size_binding = operand.binding;
      grid.size_axis = operand.view[size_use->axis].array_axis;
    }
  }
  // A loop bounded in the kernel that tiles no operand (a loop over the rows of a loaded block,
  // `hl.tile(outer.end - outer.begin)`, indexing its window) is sized on the host by the
  // enclosing loop's axis, which bounds it: its extent is at most that loop's block. (A
  // jagged tile whose indices only offset a gather has no host bound at all; the nearest
  // enclosing loop with an axis stands in for it in the resource estimates, and its masks do
  // not depend on it.)
  for (GridDim& grid : launch.grid) {
    if (launch.variadic || grid.size_binding >= 0 || grid.inner_loop < 0) continue;
    if (!ir::bounds_in_kernel(kernel, kernel.tile_dims[grid.tile_dim])) continue;
    int parent = launch.inner_loops[static_cast<size_t>(grid.inner_loop)].parent;
    const bool jagged = kernel.tile_dims[grid.tile_dim].jagged;
    while (grid.size_binding < 0) {
      for (const GridDim& outer : launch.grid) {
        if (outer.inner_loop == parent && outer.size_binding >= 0) {
          grid.size_binding = outer.size_binding;
          grid.size_axis = outer.size_axis;
        }
      }
      if (!jagged || parent < 0) break;
      parent = launch.inner_loops[static_cast<size_t>(parent)].parent;
    }
  }
  // A lane dimension is flat (a 1-D tile) when every block it indexes is one row high.
  for (GridDim& grid : launch.grid) {
    if (launch.variadic || grid.role != AxisRole::kLane) continue;
    grid.flat = std::all_of(grid.uses.begin(), grid.uses.end(), [&](const TileUse& use) {
      const Operand& operand =
          use.output ? launch.outputs[use.operand].operand : launch.inputs[use.operand].operand;
      return use.axis > 0 && operand.view[use.axis - 1].kind == ViewAxis::Kind::kUnit;
    });
  }
}

}  // namespace helionc::passes
