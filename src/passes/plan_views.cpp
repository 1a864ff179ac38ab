#include "passes/plan_views.h"

#include <fmt/format.h>

#include <algorithm>

namespace helionc::passes {

using ir::IndexItem;

bool all_scalar(const ir::Index& index) {
  return !index.empty() && std::all_of(index.begin(), index.end(), [](const IndexItem& item) {
    return item.kind == IndexItem::Kind::kScalar;
  });
}

namespace {

// The gathers the kernel printer can do: one gathered axis of a table of any rank whose other
// axes are tiles, `:`, slices or scalars an index map computes (the block is whole along the
// gathered axis; a scalar axis is squeezed away, so the kernel gathers from the block as if it
// were not there), at indices of static rank (`w[ids[tile_b], tile_e]`, `x[tile_m, ids]`,
// `t[ids[tile_b], :, 0:2, :]`, `w[ids[tile_b, tile_s], tile_e]`, `x[b, tile_k.index + off, h,
// tile_m]`). A scalar on the last axis would be a lane window the kernel selects from
// (ViewAxis::kColumn), which the gathers do not do yet. A store may also scatter through two
// 1-D tiles of indices into both axes of a 2-D array (`out[rows[tile], cols[tile]] = v`: the
// cartesian product, `_scatter_cartesian`).
std::optional<ViewError> check_gather(const Operand& operand, int rank, const std::string& name,
                                      bool store) {
  const IndexItem* gather = nullptr;
  for (const IndexItem& item : operand.index) {
    if (item.kind != IndexItem::Kind::kGather) continue;
    if (gather != nullptr) {
      if (store && cartesian_scatter(operand.index, rank)) return std::nullopt;
      return ViewError{item.range, store ? fmt::format("storing into `{}` through two tiles of "
                                                       "indices is supported only for both axes "
                                                       "of a 2-D array, each through a 1-D tile",
                                                       name)
                                         : fmt::format("gathering from `{}` with two tiles of "
                                                       "indices is not supported yet",
                                                       name)};
    }
    gather = &item;
  }
  if (gather == nullptr) return std::nullopt;
  bool simple = true;
  int axis = 0;
  for (const IndexItem& item : operand.index) {
    const bool last = axis == rank - 1;
    if (item.kind != IndexItem::Kind::kNewAxis) ++axis;
    simple =
        simple && (item.kind == IndexItem::Kind::kGather || item.kind == IndexItem::Kind::kTile ||
                   item.kind == IndexItem::Kind::kFull || item.kind == IndexItem::Kind::kSlice ||
                   (item.kind == IndexItem::Kind::kScalar && !last));
  }
  if (!simple) {
    return ViewError{gather->range,
                     fmt::format("gathering from `{}` together with `None` or an integer index of "
                                 "its last axis is not supported yet; index its other axes with "
                                 "tiles, `:` or slices and index the gathered value instead",
                                 name)};
  }
  if (gather->scalar->type.variadic) {
    return ViewError{gather->range,
                     "gathering with a tile of indices of trace-time rank is not supported yet"};
  }
  return std::nullopt;
}

}  // namespace

bool cartesian_scatter(const ir::Index& index, int rank) {
  return rank == 2 && index.size() == 2 &&
         std::all_of(index.begin(), index.end(), [](const IndexItem& item) {
           return item.kind == IndexItem::Kind::kGather && !item.scalar->type.variadic &&
                  item.scalar->type.dims.size() == 1;
         });
}

std::optional<ViewError> build_view(Operand& operand, int rank, const std::string& name, bool store,
                                    const std::function<bool(int)>& one_row) {
  std::vector<ViewAxis>& view = operand.view;
  int axis = 0;
  for (const IndexItem& item : operand.index) {
    ViewAxis v;
    switch (item.kind) {
      case IndexItem::Kind::kTile:
        v.kind = ViewAxis::Kind::kTile;
        v.tile_dim = item.tile_dim;
        v.array_axis = axis++;
        break;
      case IndexItem::Kind::kFull:
      case IndexItem::Kind::kSlice:  // the block is whole along the axis; accesses slice it
        v.kind = ViewAxis::Kind::kFull;
        v.array_axis = axis++;
        break;
      case IndexItem::Kind::kNewAxis:
        v.kind = ViewAxis::Kind::kUnit;
        operand.reshaped = true;
        break;
      case IndexItem::Kind::kScalar:
        v.kind = ViewAxis::Kind::kScalar;
        v.array_axis = axis++;
        v.scalar = item.scalar;
        v.squeezed = true;
        break;
      case IndexItem::Kind::kGather:
        // The kernel gathers along the whole axis (one-hot in VMEM).
        v.kind = ViewAxis::Kind::kFull;
        v.array_axis = axis++;
        v.gather = item.scalar;
        break;
      case IndexItem::Kind::kVariadic:
        break;  // rank-polymorphic operands have no static view
    }
    view.push_back(std::move(v));
  }
  if (axis > rank) {
    return ViewError{operand.range, fmt::format("`{}` has {} dimensions but is indexed with {}",
                                                name, rank, axis)};
  }
  for (; axis < rank; ++axis) {
    ViewAxis v;
    v.kind = ViewAxis::Kind::kFull;
    v.array_axis = axis;
    view.push_back(std::move(v));
  }

  if (std::optional<ViewError> error = check_gather(operand, rank, name, store)) return error;

  // A scalar on the last (lane) axis: a block one lane wide is illegal, so the block is a
  // lane-aligned window holding the column and the kernel selects it.
  if (!view.empty() && view.back().kind == ViewAxis::Kind::kScalar) {
    view.back().kind = ViewAxis::Kind::kColumn;
    view.back().squeezed = false;
  }
  ViewAxis squeezed_unit;
  squeezed_unit.kind = ViewAxis::Kind::kUnit;
  squeezed_unit.squeezed = true;
  // A squeezed axis counts as 1 in the block rules, so keep it out of the last two axes.
  if (view.size() >= 2 && view[view.size() - 2].kind == ViewAxis::Kind::kScalar) {
    view.insert(view.end() - 1, squeezed_unit);
    operand.reshaped = true;
  }
  if (one_row && view.size() >= 2 && view[view.size() - 2].kind == ViewAxis::Kind::kTile &&
      one_row(view[view.size() - 2].tile_dim)) {
    view[view.size() - 2].squeezed = true;
    ViewAxis row;
    row.kind = ViewAxis::Kind::kUnit;
    view.insert(view.end() - 1, row);
    operand.reshaped = true;
  }
  while (view.size() < 2) {
    view.insert(view.begin(), squeezed_unit);
    operand.reshaped = true;
  }
  for (size_t i = 0; i < view.size(); ++i) {
    const size_t from_end = view.size() - i;
    view[i].role = from_end == 1   ? AxisRole::kLane
                   : from_end == 2 ? AxisRole::kSublane
                                   : AxisRole::kLeading;
  }
  return std::nullopt;
}

}  // namespace helionc::passes
