#include "passes/inner_trips.h"

#include <algorithm>

#include "ir/visitor.h"
#include "passes/host_values.h"
#include "support/checked_int.h"

namespace helionc::passes {

namespace {

constexpr int kNone = -1;
constexpr int kSeveral = -2;

// The tile dimension whose scalar attributes `bound` reads: kNone, one, or kSeveral (also for
// `.index`, a vector the count cannot follow).
int read_tile(const ir::ExprPtr& bound) {
  int found = kNone;
  ir::for_each_expr(bound, [&](const ir::Expr& e) {
    const auto* attr = e.as<ir::TileAttr>();
    if (attr == nullptr) return;
    if (attr->attr == ir::TileAttrKind::kIndex || (found != kNone && found != attr->tile_dim)) {
      found = kSeveral;
    } else if (found == kNone) {
      found = attr->tile_dim;
    }
  });
  return found;
}

// Evaluates a bound at one step of the outer tile.
class StepEvaluator {
 public:
  StepEvaluator(const OuterTile& outer, int64_t step,
                const std::function<std::optional<int64_t>(const ir::ExprPtr&)>& host_int)
      : outer_(outer), step_(step), host_int_(host_int) {}

  std::optional<int64_t> operator()(const ir::ExprPtr& expr) const {
    if (read_tile(expr) == kNone) return host_int_(expr);
    if (const auto* attr = expr->as<ir::TileAttr>()) return attribute(attr->attr);
    if (const auto* binary = expr->as<ir::Binary>()) {
      const std::optional<int64_t> lhs = (*this)(binary->lhs);
      const std::optional<int64_t> rhs = (*this)(binary->rhs);
      if (!lhs || !rhs) return std::nullopt;
      return fold_int_binary(binary->op, *lhs, *rhs);
    }
    if (const auto* call = expr->as<ir::Call>()) {
      const bool min = call->op == ir::Intrinsic::kMinimum;
      if ((!min && call->op != ir::Intrinsic::kMaximum) || call->args.size() != 2) {
        return std::nullopt;
      }
      const std::optional<int64_t> a = (*this)(call->args[0]);
      const std::optional<int64_t> b = (*this)(call->args[1]);
      if (!a || !b) return std::nullopt;
      return min ? std::min(*a, *b) : std::max(*a, *b);
    }
    return std::nullopt;
  }

  int64_t begin() const { return step_ * outer_.block; }
  int64_t end() const { return std::min(begin() + outer_.block, outer_.size); }

 private:
  std::optional<int64_t> attribute(ir::TileAttrKind attr) const {
    switch (attr) {
      case ir::TileAttrKind::kBegin:
        return begin();
      case ir::TileAttrKind::kEnd:
        return end();
      case ir::TileAttrKind::kBlockSize:
        return outer_.block;
      case ir::TileAttrKind::kId:
        return step_;
      case ir::TileAttrKind::kCount:
        return ceil_div(outer_.size, outer_.block);
      case ir::TileAttrKind::kIndex:
        break;
    }
    return std::nullopt;
  }

  const OuterTile& outer_;
  int64_t step_;
  const std::function<std::optional<int64_t>(const ir::ExprPtr&)>& host_int_;
};

}  // namespace

int moving_outer_dim(const MovingRange& range) {
  const int begin = read_tile(range.begin);
  const int end = read_tile(range.end);
  if (begin == kSeveral || end == kSeveral) return kNone;
  if (begin != kNone && end != kNone && begin != end) return kNone;
  return begin != kNone ? begin : end;
}

std::optional<int64_t> total_inner_blocks(
    const MovingRange& range, const OuterTile& outer,
    const std::function<std::optional<int64_t>(const ir::ExprPtr&)>& host_int) {
  if (outer.block <= 0 || range.block <= 0) return std::nullopt;
  const int64_t steps = ceil_div(outer.size, outer.block);
  int64_t total = 0;
  for (int64_t step = 0; step < steps; ++step) {
    const StepEvaluator at(outer, step, host_int);
    std::optional<int64_t> begin = range.begin ? at(range.begin) : std::optional<int64_t>(0);
    std::optional<int64_t> end = range.end ? at(range.end) : std::optional<int64_t>(range.size);
    if (!begin || !end) return std::nullopt;
    int64_t last = std::min(*end, range.size);  // one past the last element the loop runs
    // The skip compares with the outer block's unclipped end, as the module's `pl.when` does.
    if (range.skip_offset) {
      last = std::min(last, at.begin() + outer.block + *range.skip_offset);
    }
    const int64_t first = std::max<int64_t>(*begin, 0);
    if (last <= first) continue;
    total += ceil_div(last, range.block) - *checked_floor_div(first, range.block);
  }
  return total;
}

}  // namespace helionc::passes
