#include "passes/plan_picks.h"

#include <fmt/format.h>

#include <algorithm>

#include "ir/printer.h"

namespace helionc::passes {

using ir::IndexItem;

std::string index_item_key(const ir::Kernel& kernel, const IndexItem& item) {
  switch (item.kind) {
    case IndexItem::Kind::kTile:
      return fmt::format("t{}", item.tile_dim);
    case IndexItem::Kind::kVariadic:
      return fmt::format("t{}...", item.tile_dim);
    case IndexItem::Kind::kFull:
      return ":";
    case IndexItem::Kind::kSlice:
      return fmt::format("slice {}", ir::print_slice_bounds(kernel, kernel.slices[item.slice]));
    case IndexItem::Kind::kNewAxis:
      return "None";
    case IndexItem::Kind::kScalar:
      return ir::print_expr(kernel, item.scalar);
    case IndexItem::Kind::kGather:
      return "gather " + ir::print_expr(kernel, item.scalar);
  }
  return "";
}

namespace {

bool scalar_or_full(const IndexItem& item) {
  return item.kind == IndexItem::Kind::kScalar || item.kind == IndexItem::Kind::kFull;
}

// What a store may hold on a picked axis: a scalar (`_put`), `:` (a plain store), or the
// indices of a tile or a tile of indices (`tile`, `tile.index + k`: a scatter, `_scatter`).
bool storable_on_picked_axis(const IndexItem& item) {
  return scalar_or_full(item) || item.kind == IndexItem::Kind::kTile ||
         item.kind == IndexItem::Kind::kGather;
}

}  // namespace

std::optional<PickedPattern> picked_pattern(const ir::Kernel& kernel,
                                            const std::vector<const ir::Index*>& stores, int rank,
                                            const MovesInKernel& moves_in_kernel) {
  if (stores.empty()) return std::nullopt;
  const size_t size = stores.front()->size();
  for (const ir::Index* index : stores) {
    if (index->size() != size) return std::nullopt;
    for (const IndexItem& item : *index) {
      if (item.kind == IndexItem::Kind::kNewAxis || item.kind == IndexItem::Kind::kVariadic) {
        return std::nullopt;
      }
    }
  }
  PickedPattern pattern;
  pattern.index = *stores.front();
  for (size_t p = 0; p < size; ++p) {
    const std::string key = index_item_key(kernel, (*stores.front())[p]);
    const bool same = std::all_of(stores.begin(), stores.end(), [&](const ir::Index* index) {
      return index_item_key(kernel, (*index)[p]) == key;
    });
    // A one-lane block is illegal: a scalar on the last axis is always picked.
    const bool lane_scalar =
        static_cast<int>(p) == rank - 1 && (*stores.front())[p].kind == IndexItem::Kind::kScalar;
    const bool moves = std::any_of(stores.begin(), stores.end(), [&](const ir::Index* index) {
      const IndexItem& item = (*index)[p];
      return item.kind == IndexItem::Kind::kScalar && moves_in_kernel(item.scalar);
    });
    if (same && !lane_scalar && !moves) continue;
    const bool pickable = std::all_of(stores.begin(), stores.end(), [&](const ir::Index* index) {
      return storable_on_picked_axis((*index)[p]);
    });
    if (!pickable) return std::nullopt;
    IndexItem whole;
    whole.kind = IndexItem::Kind::kFull;
    whole.range = pattern.index[p].range;
    pattern.index[p] = whole;
    pattern.positions.push_back(static_cast<int>(p));
  }
  if (pattern.positions.empty()) return std::nullopt;
  return pattern;
}

std::optional<PickedPattern> picked_read_pattern(const ir::Index& index,
                                                 const MovesInKernel& moves_in_kernel) {
  PickedPattern pattern;
  pattern.index = index;
  for (size_t p = 0; p < index.size(); ++p) {
    const IndexItem& item = index[p];
    // Positions are array axes (as for stores); `None` would shift them.
    if (item.kind == IndexItem::Kind::kNewAxis) return std::nullopt;
    if (item.kind != IndexItem::Kind::kScalar || !moves_in_kernel(item.scalar)) continue;
    IndexItem whole;
    whole.kind = IndexItem::Kind::kFull;
    whole.range = item.range;
    pattern.index[p] = whole;
    pattern.positions.push_back(static_cast<int>(p));
  }
  if (pattern.positions.empty()) return std::nullopt;
  return pattern;
}

std::optional<ir::Index> unpicked_index(const ir::Index& index, const PickedPattern& pattern) {
  if (index.size() != pattern.index.size()) return std::nullopt;
  ir::Index result = index;
  for (int p : pattern.positions) {
    if (!scalar_or_full(index[static_cast<size_t>(p)])) return std::nullopt;
    IndexItem whole;
    whole.kind = IndexItem::Kind::kFull;
    whole.range = index[static_cast<size_t>(p)].range;
    result[static_cast<size_t>(p)] = whole;
  }
  return result;
}

}  // namespace helionc::passes
