#include "passes/plan_hoists.h"

#include <algorithm>
#include <set>

#include "ir/nodes.h"
#include "ir/visitor.h"
#include "passes/launch_plan.h"
#include "passes/plan_costs.h"

namespace helionc::passes {

namespace {

// Every binding a block defines, at any depth: `let` targets, the names an `if` merges, the
// variables and carried values of loops inside it.
class BodyBindings final : public ir::Visitor {
 public:
  std::set<int> bindings;

 private:
  void visit_node(const ir::Let& node) override {
    bindings.insert(node.targets.begin(), node.targets.end());
    Visitor::visit_node(node);
  }
  void visit_node(const ir::If& node) override {
    for (const ir::If::Merge& merge : node.merges) bindings.insert(merge.result);
    Visitor::visit_node(node);
  }
  void visit_node(const ir::TileLoop& node) override {
    bindings.insert(node.loop_vars.begin(), node.loop_vars.end());
    add_carries(node.carried);
    Visitor::visit_node(node);
  }
  void visit_node(const ir::StaticLoop& node) override {
    bindings.insert(node.var);
    add_carries(node.carried);
    Visitor::visit_node(node);
  }
  void add_carries(const std::vector<ir::TileLoop::Carry>& carried) {
    for (const ir::TileLoop::Carry& carry : carried) {
      bindings.insert({carry.phi, carry.next, carry.result});
    }
  }
};

// Whether `type` names one of `tile_dims` (a block of the loop's tiles, or the tile itself).
bool names_tile(const ir::Type& type, const std::set<int>& tile_dims) {
  for (const ir::Dim& dim : type.dims) {
    if (dim.tile_dim >= 0 && tile_dims.contains(dim.tile_dim)) return true;
  }
  for (int dim : type.tile_dims) {
    if (tile_dims.contains(dim)) return true;
  }
  return std::any_of(type.elements.begin(), type.elements.end(),
                     [&](const ir::Type& element) { return names_tile(element, tile_dims); });
}

// Calls whose result may differ from one evaluation to the next, or that do something besides
// computing it.
bool impure(ir::Intrinsic op) {
  switch (op) {
    case ir::Intrinsic::kRand:
    case ir::Intrinsic::kRandint:
    case ir::Intrinsic::kRandn:
    case ir::Intrinsic::kPrint:
    case ir::Intrinsic::kCallParam:
      return true;
    default:
      return false;
  }
}

// Creation of a value from a scalar (a splat, an iota): cheaper at each step than held across
// the loop, so never hoisted as a part of a statement.
bool creation(ir::Intrinsic op) {
  return op == ir::Intrinsic::kFull || op == ir::Intrinsic::kFullLike ||
         op == ir::Intrinsic::kArange;
}

// Whether computing `value` does arithmetic (an operator, a math function, a cast, a reduction,
// a product), not only shape ops on values already held (`tile.index[:, None]`, `x[None]`),
// which cost no more at each step than a held copy.
bool does_arithmetic(const ir::ExprPtr& value) {
  bool arithmetic = false;
  ir::for_each_expr(value, [&](const ir::Expr& expr) {
    if (expr.as<ir::Unary>() != nullptr || expr.as<ir::Binary>() != nullptr ||
        expr.as<ir::Compare>() != nullptr) {
      arithmetic = true;
    } else if (const auto* call = expr.as<ir::Call>()) {
      arithmetic |= call->op == ir::Intrinsic::kCast ||
                    ir::intrinsic_cost(call->op).basis != ir::IntrinsicCost::Basis::kNone;
    }
  });
  return arithmetic;
}

// Calls whose arguments hold a function body over hidden parameters (bindings no `let`
// defines): a part of one is not a value of its own.
bool holds_body(ir::Intrinsic op) {
  return op == ir::Intrinsic::kScan || op == ir::Intrinsic::kCombineReduce;
}

class InvariantValues {
 public:
  explicit InvariantValues(const ir::TileLoop& loop)
      : tile_dims_(loop.tile_dims.begin(), loop.tile_dims.end()),
        stored_(ir::stored_tensors(loop.body)) {
    BodyBindings body;
    body.visit(loop.body);
    varying_ = std::move(body.bindings);
    varying_.insert(loop.loop_vars.begin(), loop.loop_vars.end());
    for (const ir::TileLoop::Carry& carry : loop.carried) {
      varying_.insert({carry.phi, carry.next});
      carried_.insert(carry.next);
    }
  }

  std::vector<HoistedValue> find(const ir::Block& body) {
    std::vector<HoistedValue> found;
    for (const ir::StmtPtr& stmt : body) {
      if (const auto* let = stmt->as<ir::Let>()) {
        if (invariant(*let)) {
          found.push_back({let, nullptr});
          for (int target : let->targets) varying_.erase(target);  // later lets may read it
        } else {
          parts(let->value, found);
        }
      } else if (const auto* store = stmt->as<ir::Store>()) {
        parts(store->value, found);
      }
    }
    return found;
  }

 private:
  bool invariant(const ir::Let& let) const {
    if (let.targets.empty()) return false;
    for (int target : let.targets) {
      if (carried_.contains(target)) return false;
    }
    return invariant(let.value);
  }

  bool invariant(const ir::ExprPtr& value) const {
    bool invariant = true;
    ir::for_each_expr(value, [&](const ir::Expr& expr) {
      if (!invariant) return;
      if (names_tile(expr.type, tile_dims_)) {
        invariant = false;
      } else if (const auto* ref = expr.as<ir::VarRef>()) {
        invariant = !varying_.contains(ref->binding);
      } else if (const auto* attr = expr.as<ir::TileAttr>()) {
        invariant = !tile_dims_.contains(attr->tile_dim);
      } else if (const auto* call = expr.as<ir::Call>()) {
        invariant = !impure(call->op);
      } else if (const auto* load = expr.as<ir::Load>()) {
        invariant = reads_unstored(*load);
      }
    });
    return invariant;
  }

  // The largest invariant parts of a statement's value that do work on a block (`q * qk_scale`
  // in `hl.dot(q * qk_scale, k.T)`), in the order they are evaluated.
  void parts(const ir::ExprPtr& value, std::vector<HoistedValue>& found) const {
    if (!value) return;
    const ir::Expr& expr = *value;
    const auto* call = expr.as<ir::Call>();
    const bool work = expr.as<ir::Unary>() != nullptr || expr.as<ir::Binary>() != nullptr ||
                      expr.as<ir::Compare>() != nullptr || (call != nullptr && !creation(call->op));
    if (work && expr.type.kind == ir::TypeKind::kTileTensor && does_arithmetic(value) &&
        invariant(value)) {
      found.push_back({nullptr, value});
      return;
    }
    if (const auto* unary = expr.as<ir::Unary>()) {
      parts(unary->operand, found);
    } else if (const auto* binary = expr.as<ir::Binary>()) {
      parts(binary->lhs, found);
      parts(binary->rhs, found);
    } else if (const auto* compare = expr.as<ir::Compare>()) {
      parts(compare->lhs, found);
      parts(compare->rhs, found);
    } else if (call != nullptr && !holds_body(call->op)) {
      for (const ir::ExprPtr& arg : call->args) parts(arg, found);
    } else if (const auto* tuple = expr.as<ir::TupleExpr>()) {
      for (const ir::ExprPtr& element : tuple->elements) parts(element, found);
    } else if (const auto* get = expr.as<ir::TupleGet>()) {
      parts(get->tuple, found);
    }
  }

  // A load from an array the body stores nothing into, at an index that names none of the
  // loop's tiles (its scalars and gathered indices are checked as expressions).
  bool reads_unstored(const ir::Load& load) const {
    const auto* tensor = load.tensor->as<ir::VarRef>();
    if (tensor == nullptr || stored_.contains(tensor->binding)) return false;
    return std::none_of(load.index.begin(), load.index.end(), [&](const ir::IndexItem& item) {
      return item.tile_dim >= 0 && tile_dims_.contains(item.tile_dim);
    });
  }

  std::set<int> tile_dims_;
  std::set<int> stored_;
  std::set<int> varying_;  // bindings whose value may change from step to step
  std::set<int> carried_;  // the carried names' `next` bindings
};

}  // namespace

std::vector<HoistedValue> invariant_values(const ir::TileLoop& loop) {
  return InvariantValues(loop).find(loop.body);
}

bool hoists_invariants(LoopStrategy strategy) {
  return strategy == LoopStrategy::kForiLoop || strategy == LoopStrategy::kEmitPipeline;
}

std::vector<std::vector<HoistedValue>> hoisted_values(const Launch& launch,
                                                      const std::vector<LoopStrategy>& strategies) {
  std::vector<std::vector<HoistedValue>> hoisted(launch.inner_loops.size());
  for (size_t i = 0; i < launch.inner_loops.size(); ++i) {
    if (i < strategies.size() && hoists_invariants(strategies[i])) {
      hoisted[i] = invariant_values(launch.inner_loops[i].tile_loop());
    }
  }
  return hoisted;
}

HoistedWork hoisted_work(const Launch& launch, const LaunchSchedule& schedule) {
  HoistedWork work;
  for (size_t i = 0; i < schedule.hoisted.size(); ++i) {
    const int parent = launch.inner_loops[i].parent;
    for (const HoistedValue& value : schedule.hoisted[i]) {
      const ir::ExprPtr& expr = value.let != nullptr ? value.let->value : value.expr;
      ir::for_each_expr(expr, [&](const ir::Expr& e) {
        count_cost(e, work.in_loop, static_cast<int>(i));
        count_cost(e, work.before_loop, parent);
      });
    }
  }
  return work;
}

}  // namespace helionc::passes
