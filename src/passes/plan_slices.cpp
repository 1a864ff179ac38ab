#include "passes/plan_slices.h"

#include <set>
#include <string>
#include <utility>

#include "ir/printer.h"

namespace helionc::passes {

namespace {

constexpr const char* kStart = "0";
constexpr const char* kEnd = "<end>";  // never the text of an expression

// The array axis of each slice entry of `index`, with the entry.
std::vector<std::pair<int, const ir::IndexItem*>> sliced_axes(const ir::Index& index) {
  std::vector<std::pair<int, const ir::IndexItem*>> sliced;
  int axis = 0;
  for (const ir::IndexItem& item : index) {
    if (item.kind == ir::IndexItem::Kind::kSlice) sliced.emplace_back(axis, &item);
    if (item.kind != ir::IndexItem::Kind::kNewAxis) ++axis;
  }
  return sliced;
}

std::string bound_key(const ir::Kernel& kernel, const ir::ExprPtr& bound, const char* absent) {
  if (!bound) return absent;
  return ir::print_expr(kernel, bound);
}

}  // namespace

std::optional<SliceGap> uncovered_slice(const ir::Kernel& kernel,
                                        const std::vector<SliceStore>& stores) {
  std::optional<SliceGap> first;
  std::vector<std::pair<std::string, std::string>> spans;  // [start, stop) as written
  bool one_axis = true;
  bool whole = false;  // a store of whole axes that always runs
  for (const SliceStore& store : stores) {
    const auto sliced = sliced_axes(*store.index);
    if (sliced.empty()) {
      whole = whole || !store.conditional;
      continue;
    }
    if (!first) first = SliceGap{sliced.front().second->range, sliced.front().first};
    one_axis = one_axis && sliced.size() == 1 && sliced.front().first == first->axis;
    if (store.conditional) continue;
    const ir::SliceBounds& bounds =
        kernel.slices[static_cast<size_t>(sliced.front().second->slice)];
    spans.emplace_back(bound_key(kernel, bounds.start, kStart),
                       bound_key(kernel, bounds.stop, kEnd));
  }
  if (whole || !first) return std::nullopt;  // every element written, or no slices
  if (!one_axis) return first;
  // The points reachable from the axis's start along spans that begin at a reached point.
  std::set<std::string> reached = {kStart};
  for (size_t round = 0; round < spans.size(); ++round) {
    for (const auto& [start, stop] : spans) {
      if (reached.count(start) > 0) reached.insert(stop);
    }
  }
  if (reached.count(kEnd) > 0) return std::nullopt;
  return first;
}

}  // namespace helionc::passes
