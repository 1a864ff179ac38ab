#include "passes/plan_lane_rows.h"

#include <functional>
#include <map>
#include <vector>

#include "ir/dtype.h"
#include "ir/nodes.h"
#include "ir/visitor.h"
#include "passes/launch_plan.h"
#include "passes/plan_costs.h"

namespace helionc::passes {

using ir::Intrinsic;

namespace {

bool is_tile(const ir::Expr& expr) { return expr.type.kind == ir::TypeKind::kTileTensor; }

// Elementwise work that keeps a lane row a lane row: each output element reads only the input
// elements at its own position (a random draw reads positions too, but its counters are the
// logical ones: not one).
bool elementwise(Intrinsic op) {
  switch (op) {
    case Intrinsic::kRand:
    case Intrinsic::kRandint:
    case Intrinsic::kRandn:
      return false;
    case Intrinsic::kCast:
      return true;
    default:
      return ir::intrinsic_cost(op).basis == ir::IntrinsicCost::Basis::kResult;
  }
}

// An operand of elementwise work producing `result`: a scalar, or a lane row of its shape.
bool row_operand(const ir::Expr& operand, const ir::Expr& result, const std::set<int>& rows) {
  if (!is_tile(operand)) return true;
  return operand.type.dims == result.type.dims && lane_row_value(operand, rows);
}

// A binding the pass may hold as a lane row (before looking at its definition).
bool candidate_type(const ir::Type& type) {
  return lane_row_shape(type) && (!type.dtype || ir::is_floating(*type.dtype));
}

// Calls `fn` on each node of `expr`'s tree that is printed as a lane row (the nodes
// lane_row_value accepts, not a reduction's operand).
void visit_row_tree(const ir::Expr& expr, const std::set<int>& rows,
                    const std::function<void(const ir::Expr&)>& fn) {
  if (!is_tile(expr)) return;
  fn(expr);
  if (const auto* unary = expr.as<ir::Unary>()) {
    visit_row_tree(*unary->operand, rows, fn);
  } else if (const auto* binary = expr.as<ir::Binary>()) {
    visit_row_tree(*binary->lhs, rows, fn);
    visit_row_tree(*binary->rhs, rows, fn);
  } else if (const auto* compare = expr.as<ir::Compare>()) {
    visit_row_tree(*compare->lhs, rows, fn);
    visit_row_tree(*compare->rhs, rows, fn);
  } else if (const auto* call = expr.as<ir::Call>()) {
    if (lane_row_reduction(*call)) return;
    for (const ir::ExprPtr& arg : call->args) visit_row_tree(*arg, rows, fn);
  }
}

// Bindings joined into one Python variable (carries, merges) or one group of lane rows.
class Groups {
 public:
  int find(int b) {
    auto [it, fresh] = parent_.try_emplace(b, b);
    if (fresh || it->second == b) return b;
    const int root = find(it->second);
    parent_[b] = root;
    return root;
  }
  void join(int a, int b) { parent_[find(a)] = find(b); }

 private:
  std::map<int, int> parent_;
};

class LaneRows {
 public:
  LaneRows(const ir::Kernel& kernel, const Launch& launch, const LaunchSchedule& schedule)
      : kernel_(kernel), launch_(launch), schedule_(schedule) {}

  std::set<int> run() {
    collect(launch_.tile_loop().body);
    std::set<int> rows;
    for (const auto& [binding, definition] : definitions_) {
      if (candidate_type(kernel_.bindings[static_cast<size_t>(binding)].type)) {
        rows.insert(binding);
      }
    }
    for (const DefinitionMask& mask : schedule_.definition_masks) rows.erase(mask.binding);
    // A variable's names are all lane rows or none; one with a name the body does not define
    // (a carry's start from outside the launch) is none.
    drop_split_variables(rows);
    // Drop the names whose definition cannot produce a lane row, until none is left to drop.
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& [binding, definition] : definitions_) {
        if (rows.contains(binding) && !lane_row_value(*definition, rows)) {
          drop_variable(rows, binding);
          changed = true;
        }
      }
    }
    keep_paying_groups(rows);
    return rows;
  }

 private:
  void collect(const ir::Block& block) {
    for (const ir::StmtPtr& stmt : block) {
      if (const auto* let = stmt->as<ir::Let>()) {
        if (!let->unpack && let->targets.size() == 1) definitions_[let->targets[0]] = let->value;
      } else if (const auto* loop = stmt->as<ir::TileLoop>()) {
        join_carries(loop->carried);
        collect(loop->body);
      } else if (const auto* loop = stmt->as<ir::StaticLoop>()) {
        join_carries(loop->carried);
        collect(loop->body);
      } else if (const auto* branch = stmt->as<ir::If>()) {
        for (const ir::If::Merge& merge : branch->merges) {
          join_variable(merge.result, merge.then_value);
          if (merge.else_value >= 0) join_variable(merge.result, merge.else_value);
          merged_.insert(merge.result);
        }
        collect(branch->then_body);
        collect(branch->else_body);
      }
    }
  }

  void join_carries(const std::vector<ir::TileLoop::Carry>& carried) {
    for (const ir::TileLoop::Carry& carry : carried) {
      for (int name : {carry.init, carry.next, carry.result}) {
        if (name >= 0) join_variable(carry.phi, name);
      }
      merged_.insert(carry.phi);
      if (carry.result >= 0) merged_.insert(carry.result);
    }
  }

  void join_variable(int a, int b) {
    variables_.join(a, b);
    joined_.insert(a);
    joined_.insert(b);
  }

  // Removes every variable one of whose names is not a lane row: a name outside `rows` that a
  // `let` of the body defines, or one the body does not define at all (a carry's start from
  // outside the launch). The names a carry or merge defines follow the others.
  void drop_split_variables(std::set<int>& rows) {
    std::map<int, bool> whole;
    for (int name : joined_) {
      const bool held =
          rows.contains(name) || (merged_.contains(name) &&
                                  candidate_type(kernel_.bindings[static_cast<size_t>(name)].type));
      auto [it, fresh] = whole.try_emplace(variables_.find(name), held);
      if (!fresh) it->second = it->second && held;
    }
    for (const auto& [root, held] : whole) {
      for (int name : joined_) {
        if (variables_.find(name) != root) continue;
        if (held) {
          rows.insert(name);
        } else {
          rows.erase(name);
        }
      }
    }
  }

  void drop_variable(std::set<int>& rows, int binding) {
    rows.erase(binding);
    if (!joined_.contains(binding)) return;
    const int root = variables_.find(binding);
    for (int name : joined_) {
      if (variables_.find(name) == root) rows.erase(name);
    }
  }

  // Keeps the groups of lane rows (joined by the values their definitions read, and by
  // variables) that hold a reduction, have a value broadcast along a new last axis and carry a
  // value in VMEM scratch.
  void keep_paying_groups(std::set<int>& rows) {
    Groups groups;
    for (int name : rows) {
      if (joined_.contains(name)) groups.join(name, variables_.find(name));
    }
    std::set<int> reducing;
    for (const auto& entry : definitions_) {
      const int binding = entry.first;  // a plain name: lambdas capture no structured binding
      if (!rows.contains(binding)) continue;
      bool reduces = false;
      visit_row_tree(*entry.second, rows, [&](const ir::Expr& node) {
        if (const auto* ref = node.as<ir::VarRef>()) groups.join(binding, ref->binding);
        if (const auto* call = node.as<ir::Call>()) reduces |= lane_row_reduction(*call);
      });
      if (reduces) reducing.insert(binding);
    }
    std::set<int> broadcast;
    ir::for_each_expr(launch_.tile_loop().body, [&](const ir::Expr& node) {
      const auto* binary = node.as<ir::Binary>();
      const ir::Expr* tiled = binary ? lane_tiled_operand(*binary, rows) : nullptr;
      if (tiled == nullptr) return;
      visit_row_tree(*tiled, rows, [&](const ir::Expr& leaf) {
        if (const auto* ref = leaf.as<ir::VarRef>()) broadcast.insert(ref->binding);
      });
    });
    std::set<int> reducing_groups;
    std::set<int> broadcast_groups;
    std::set<int> scratch_groups;
    for (int name : reducing) reducing_groups.insert(groups.find(name));
    for (int name : broadcast) broadcast_groups.insert(groups.find(name));
    for (const ScratchBuffer& buffer : schedule_.scratch) {
      if (!buffer.holds_carry()) {
        continue;
      }
      const ir::TileLoop& loop =
          launch_.inner_loops[static_cast<size_t>(buffer.inner_loop)].tile_loop();
      const int phi = loop.carried[static_cast<size_t>(buffer.carry)].phi;
      if (rows.contains(phi)) scratch_groups.insert(groups.find(phi));
    }
    std::erase_if(rows, [&](int name) {
      const int group = groups.find(name);
      return !reducing_groups.contains(group) || !broadcast_groups.contains(group) ||
             !scratch_groups.contains(group);
    });
  }

  const ir::Kernel& kernel_;
  const Launch& launch_;
  const LaunchSchedule& schedule_;
  std::map<int, ir::ExprPtr> definitions_;  // binding -> its `let` value
  Groups variables_;
  std::set<int> joined_;  // bindings in some carry or merge
  std::set<int> merged_;  // bindings a carry or merge defines (phis, results)
};

}  // namespace

bool lane_row_shape(const ir::Type& type) {
  if (type.kind != ir::TypeKind::kTileTensor || type.dims.empty()) return false;
  for (const ir::Dim& dim : type.dims) {
    if (dim.kind == ir::Dim::Kind::kVariadic) return false;
  }
  if (type.dims.back().kind != ir::Dim::Kind::kUnit) return true;
  return type.dims.size() >= 2 && type.dims[type.dims.size() - 2].kind != ir::Dim::Kind::kUnit;
}

bool lane_row_reduction(const ir::Call& call) {
  switch (call.op) {
    case Intrinsic::kSum:
    case Intrinsic::kMean:
    case Intrinsic::kAmax:
    case Intrinsic::kAmin:
    case Intrinsic::kProd:
      break;
    default:
      return false;
  }
  const ir::Expr& operand = *call.args[0];
  if (!is_tile(operand) || operand.type.tile_rank() < 2) return false;
  if (operand.type.dims.back().kind == ir::Dim::Kind::kUnit) return false;
  if (call.args[1]->kind == ir::ExprKind::kNoneImm) return false;
  const int rank = operand.type.tile_rank();
  const int axis = ir::int_literal(*call.args[1], rank);
  return (axis == rank - 1 || axis == -1) && call.args[2]->as<ir::BoolImm>() != nullptr;
}

const ir::Expr* unit_axis_operand(const ir::Call& call) {
  if (call.op != Intrinsic::kUnsqueeze && call.op != Intrinsic::kSqueeze &&
      call.op != Intrinsic::kReshape) {
    return nullptr;
  }
  if (call.args.empty() || !is_tile(*call.args[0]) || !is_tile(call)) return nullptr;
  const std::vector<ir::Dim>& from = call.args[0]->type.dims;
  const std::vector<ir::Dim>& to = call.type.dims;
  const std::vector<ir::Dim>& longer = from.size() > to.size() ? from : to;
  const std::vector<ir::Dim>& shorter = from.size() > to.size() ? to : from;
  if (longer.size() != shorter.size() + 1 || longer.back().kind != ir::Dim::Kind::kUnit ||
      !std::equal(shorter.begin(), shorter.end(), longer.begin())) {
    return nullptr;
  }
  return call.args[0].get();
}

bool lane_row_value(const ir::Expr& expr, const std::set<int>& rows) {
  if (!lane_row_shape(expr.type)) return false;
  switch (expr.kind) {
    case ir::ExprKind::kVarRef:
      return rows.contains(expr.as<ir::VarRef>()->binding);
    case ir::ExprKind::kUnary:
      return row_operand(*expr.as<ir::Unary>()->operand, expr, rows);
    case ir::ExprKind::kBinary: {
      const auto& node = *expr.as<ir::Binary>();
      return row_operand(*node.lhs, expr, rows) && row_operand(*node.rhs, expr, rows);
    }
    case ir::ExprKind::kCompare: {
      const auto& node = *expr.as<ir::Compare>();
      return row_operand(*node.lhs, expr, rows) && row_operand(*node.rhs, expr, rows);
    }
    case ir::ExprKind::kCall: {
      const auto& call = *expr.as<ir::Call>();
      if (lane_row_reduction(call) || call.op == Intrinsic::kFull) return true;
      if (const ir::Expr* operand = unit_axis_operand(call)) return lane_row_value(*operand, rows);
      if (call.op == Intrinsic::kFullLike) return row_operand(*call.args[0], expr, rows);
      if (!elementwise(call.op)) return false;
      for (const ir::ExprPtr& arg : call.args) {
        if (!row_operand(*arg, expr, rows)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

const ir::Expr* lane_tiled_operand(const ir::Binary& node, const std::set<int>& rows) {
  const ir::Type& result = node.type;
  if (result.kind != ir::TypeKind::kTileTensor || result.dims.empty() ||
      result.dims.back().kind == ir::Dim::Kind::kUnit) {
    return nullptr;
  }
  for (const ir::ExprPtr& side : {node.lhs, node.rhs}) {
    const std::vector<ir::Dim>& dims = side->type.dims;
    if (!is_tile(*side) || dims.size() != result.dims.size() ||
        dims.back().kind != ir::Dim::Kind::kUnit ||
        !std::equal(dims.begin(), dims.end() - 1, result.dims.begin())) {
      continue;
    }
    if (reads_lane_rows(*side, rows)) return side.get();
  }
  return nullptr;
}

bool reads_lane_rows(const ir::Expr& expr, const std::set<int>& rows) {
  if (!lane_row_value(expr, rows)) return false;
  bool reads = false;
  visit_row_tree(expr, rows, [&](const ir::Expr& node) {
    if (const auto* ref = node.as<ir::VarRef>()) reads |= rows.contains(ref->binding);
  });
  return reads;
}

LaunchCost lane_row_cost(const Launch& launch, const std::set<int>& rows) {
  LaunchCost own;
  std::function<void(const ir::Block&, int)> walk = [&](const ir::Block& block, int inner) {
    for (const ir::StmtPtr& stmt : block) {
      if (const auto* let = stmt->as<ir::Let>()) {
        if (let->unpack || let->targets.size() != 1 || !rows.contains(let->targets[0])) continue;
        visit_row_tree(*let->value, rows, [&](const ir::Expr& node) {
          const auto* call = node.as<ir::Call>();
          if (call && (lane_row_reduction(*call) || unit_axis_operand(*call))) return;
          count_cost(node, own, inner);
        });
      } else if (const auto* loop = stmt->as<ir::TileLoop>()) {
        int index = inner;
        for (size_t i = 0; i < launch.inner_loops.size(); ++i) {
          if (launch.inner_loops[i].loop == loop) index = static_cast<int>(i);
        }
        walk(loop->body, index);
      } else if (const auto* loop = stmt->as<ir::StaticLoop>()) {
        walk(loop->body, inner);
      } else if (const auto* branch = stmt->as<ir::If>()) {
        walk(branch->then_body, inner);
        walk(branch->else_body, inner);
      }
    }
  };
  walk(launch.tile_loop().body, -1);
  // The same terms over the other 127 lanes of each row.
  auto wider = [](std::vector<CostTerm> terms) {
    for (CostTerm& term : terms) term.elements.push_back(ir::Dim::literal(kLaneRowLanes - 1));
    return terms;
  };
  return {wider(own.flops), wider(own.transcendentals), {}, wider(own.divisions)};
}

std::set<int> plan_lane_rows(const ir::Kernel& kernel, const Launch& launch,
                             const LaunchSchedule& schedule) {
  if (launch.variadic) return {};
  return LaneRows(kernel, launch, schedule).run();
}

}  // namespace helionc::passes
