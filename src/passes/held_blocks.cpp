#include "passes/held_blocks.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "ir/visitor.h"

namespace helionc::passes {

namespace {

// Unit axes in front of a value of rank below 2, so that it has rows and lanes.
std::vector<ir::Dim> with_rows(std::vector<ir::Dim> dims) {
  if (dims.size() < 2) dims.insert(dims.begin(), 2 - dims.size(), ir::Dim::unit());
  return dims;
}

// Whether a value's last axis fills lanes: a narrow one (a few elements) is counted with the
// narrow values (vmem_formula.h, is_narrow_value), a unit one holds nothing to reduce.
bool lane_wide(const ir::Dim& last) {
  if (last.kind == ir::Dim::Kind::kUnit) return false;
  if (last.kind == ir::Dim::Kind::kLiteral) return last.extent > 16;
  return true;
}

// The values the launch body assigns to each name (`x = ...`, loop-carried values several).
class Definitions final : public ir::Visitor {
 public:
  std::map<int, std::vector<const ir::ExprPtr*>> of;
  void visit_node(const ir::Let& node) override {
    for (int target : node.targets) of[target].push_back(&node.value);
    ir::Visitor::visit_node(node);
  }
};

// A read of a value the body computes (an array's name, read through a load, is its window
// in VMEM, read again rather than held).
const ir::VarRef* value_ref(const ir::Expr& expr) {
  const auto* ref = expr.as<ir::VarRef>();
  return ref != nullptr && ref->type.kind == ir::TypeKind::kTileTensor ? ref : nullptr;
}

// The reads of computed values (value_ref) in a block or an expression, by binding; the names
// a load's index reads (a jagged tile's lengths in its mask) pick elements, they are not the
// loaded data.
class ValueReads final : public ir::Visitor {
 public:
  explicit ValueReads(std::function<void(const ir::VarRef&)> read) : read_(std::move(read)) {}
  void visit_node(const ir::Load& node) override { visit(node.tensor); }
  void visit_node(const ir::VarRef& node) override {
    if (const ir::VarRef* ref = value_ref(node)) read_(*ref);
  }

 private:
  std::function<void(const ir::VarRef&)> read_;
};

class Reductions {
 public:
  explicit Reductions(const Launch& launch) {
    const ir::Block& body = launch.tile_loop().body;
    definitions_.visit(body);
    ValueReads([this](const ir::VarRef& ref) { ++reads_[ref.binding]; }).visit(body);
    ir::for_each_expr(body, [this](const ir::Expr& expr) { note(expr); });
  }

  std::vector<HeldBlock> held;

 private:
  void note(const ir::Expr& expr) {
    const auto* call = expr.as<ir::Call>();
    if (call == nullptr) return;
    if (call->op == ir::Intrinsic::kScan || call->op == ir::Intrinsic::kCombineReduce) {
      note_scan(*call);
      return;
    }
    if (call->op == ir::Intrinsic::kDot || !ir::reduces_along_axis(call->op)) return;
    const ir::Expr& operand = *call->args[0];
    const size_t rank = operand.type.dims.size();
    if (operand.type.kind != ir::TypeKind::kTileTensor || rank < 2) return;
    if (ir::int_literal(*call->args[1], -1) != static_cast<int>(rank) - 1) return;
    if (!lane_wide(operand.type.dims.back())) return;
    int halves = 0;
    switch (call->op) {
      case ir::Intrinsic::kArgmax:
      case ir::Intrinsic::kArgmin:
        halves = kArgReductionHalves;
        break;
      case ir::Intrinsic::kSoftmax:
      case ir::Intrinsic::kLogSoftmax:
        halves = kReusedReductionHalves;
        break;
      default:
        if (used_again(call->args[0])) halves = kReusedReductionHalves;
        break;
    }
    if (halves == 0) return;
    hold(operand.type.dims, halves);
  }

  // A scan or an in-order reduction (`hl.associative_scan`, `hl.reduce`) along the lanes of
  // its inputs (a tuple of one shape).
  void note_scan(const ir::Call& call) {
    const auto* inputs = call.args[0]->as<ir::TupleExpr>();
    if (inputs == nullptr || inputs->elements.empty()) return;
    const ir::Type& type = inputs->elements.front()->type;
    const size_t rank = type.dims.size();
    if (type.kind != ir::TypeKind::kTileTensor || rank < 2) return;
    if (ir::int_literal(*call.args[1], -1) != static_cast<int>(rank) - 1) return;
    if (!lane_wide(type.dims.back())) return;
    const int further = static_cast<int>(inputs->elements.size()) - 1;
    hold(type.dims, kScanHalves + kFurtherScanInputHalves * further);
  }

  void hold(const std::vector<ir::Dim>& dims, int halves) {
    for (HeldBlock& block : held) {
      if (block.dims == dims) {
        block.halves = std::max(block.halves, halves);
        return;
      }
    }
    held.push_back({dims, halves});
  }

  // Whether a value along the operand's lanes that the operand is computed from (a name it
  // reads, or one those names' values read) is read elsewhere in the body too: then its values
  // outlive the reduction.
  bool used_again(const ir::ExprPtr& operand) const {
    const ir::Dim& lanes = operand->type.dims.back();
    std::map<int, int> inside;
    std::set<int> expanded;
    std::function<void(const ir::ExprPtr&)> add = [&](const ir::ExprPtr& value) {
      ValueReads([&](const ir::VarRef& ref) {
        // Only values along the operand's lanes: a row's statistic (`x - x.amax(-1)`) or a
        // mask's lengths hold no block.
        if (ref.type.dims.empty() || !(ref.type.dims.back() == lanes)) return;
        ++inside[ref.binding];
        if (!expanded.insert(ref.binding).second) return;
        if (auto it = definitions_.of.find(ref.binding); it != definitions_.of.end()) {
          for (const ir::ExprPtr* definition : it->second) add(*definition);
        }
      }).visit(value);
    };
    add(operand);
    return std::any_of(inside.begin(), inside.end(),
                       [&](const auto& entry) { return reads_.at(entry.first) > entry.second; });
  }

  Definitions definitions_;
  std::map<int, int> reads_;  // VarRef reads per binding in the whole body
};

// Whether `_dot` multiplies at Precision.HIGHEST: float32 and float16 after promotion (two
// different float dtypes promote to float32; an integer with a float gives the float).
bool full_precision(ir::ScalarType a, ir::ScalarType b) {
  auto precise = [](ir::ScalarType t) {
    return t == ir::ScalarType::kFloat32 || t == ir::ScalarType::kFloat16;
  };
  if (a == b) return precise(a);
  if (ir::is_floating(a) && ir::is_floating(b)) return true;
  if (ir::is_floating(a)) return precise(a);
  if (ir::is_floating(b)) return precise(b);
  return false;
}

// The arrays a value is loaded from (through the names it reads), in order of first reading.
void source_arrays(const ir::ExprPtr& value, const Definitions& definitions, std::set<int>& seen,
                   std::vector<int>& arrays) {
  ir::for_each_expr(value, [&](const ir::Expr& expr) {
    if (const auto* load = expr.as<ir::Load>()) {
      if (const auto* tensor = load->tensor->as<ir::VarRef>()) {
        if (std::find(arrays.begin(), arrays.end(), tensor->binding) == arrays.end()) {
          arrays.push_back(tensor->binding);
        }
      }
      return;
    }
    const ir::VarRef* ref = value_ref(expr);
    if (ref == nullptr || !seen.insert(ref->binding).second) return;
    if (auto it = definitions.of.find(ref->binding); it != definitions.of.end()) {
      for (const ir::ExprPtr* definition : it->second) {
        source_arrays(*definition, definitions, seen, arrays);
      }
    }
  });
}

struct PreciseProduct {
  const ir::Call* dot;
  std::vector<int> if_wide;  // HeldBlock::if_wide
};

std::vector<PreciseProduct> precise_products(const Launch& launch) {
  Definitions definitions;
  definitions.visit(launch.tile_loop().body);
  std::vector<PreciseProduct> found;
  ir::for_each_expr(launch.tile_loop().body, [&](const ir::Expr& expr) {
    const auto* call = expr.as<ir::Call>();
    if (call == nullptr || call->op != ir::Intrinsic::kDot) return;
    const ir::ExprPtr& lhs = call->args[0];
    const ir::ExprPtr& rhs = call->args[2];
    std::vector<int> if_wide;
    if (lhs->type.dtype && rhs->type.dtype) {
      if (!full_precision(*lhs->type.dtype, *rhs->type.dtype)) return;
    } else {
      // A known dtype decides for its side; the other side's arrays decide while JAX traces.
      for (const ir::ExprPtr* side : {&lhs, &rhs}) {
        const std::optional<ir::ScalarType>& dtype = (*side)->type.dtype;
        if (dtype && full_precision(*dtype, *dtype)) {
          if_wide.clear();
          break;
        }
        if (dtype) continue;
        std::set<int> seen;
        std::vector<int> arrays;
        source_arrays(*side, definitions, seen, arrays);
        if (arrays.empty()) {  // nothing to decide by: it counts
          if_wide.clear();
          break;
        }
        for (int array : arrays) {
          if (std::find(if_wide.begin(), if_wide.end(), array) == if_wide.end()) {
            if_wide.push_back(array);
          }
        }
      }
    }
    const bool seen = std::any_of(found.begin(), found.end(), [&](const PreciseProduct& other) {
      return other.dot->args[0]->type.dims == lhs->type.dims &&
             other.dot->args[2]->type.dims == rhs->type.dims &&
             other.dot->type.dims == call->type.dims && other.if_wide == if_wide;
    });
    if (!seen) found.push_back({call, std::move(if_wide)});
  });
  return found;
}

}  // namespace

std::vector<HeldBlock> launch_reduced_blocks(const Launch& launch) {
  std::vector<HeldBlock> held = Reductions(launch).held;
  for (HeldBlock& block : held) block.dims = with_rows(std::move(block.dims));
  return held;
}

std::vector<HeldBlock> launch_precise_products(const Launch& launch) {
  std::vector<HeldBlock> held;
  for (const PreciseProduct& product : precise_products(launch)) {
    const ir::Call& dot = *product.dot;
    held.push_back(
        {with_rows(dot.args[0]->type.dims), kPreciseOperandHalves, false, product.if_wide});
    // The rhs contracted along its rows (`x @ y`), not its lanes (`q @ k.T`).
    const size_t rank = dot.args[2]->type.dims.size();
    const bool rows = rank >= 2 && ir::int_literal(*dot.args[3], -1) == static_cast<int>(rank) - 2;
    held.push_back(
        {with_rows(dot.args[2]->type.dims), kPreciseOperandHalves, rows, product.if_wide});
    held.push_back({with_rows(dot.type.dims), kPreciseResultHalves, false, product.if_wide});
  }
  return held;
}

namespace {

bool is_draw(const ir::Expr& expr) {
  const auto* call = expr.as<ir::Call>();
  return call != nullptr &&
         (call->op == ir::Intrinsic::kRand || call->op == ir::Intrinsic::kRandn ||
          call->op == ir::Intrinsic::kRandint);
}

// The random draws of the launch, in order.
std::vector<const ir::Expr*> launch_draws(const Launch& launch) {
  std::vector<const ir::Expr*> draws;
  ir::for_each_expr(launch.tile_loop().body, [&](const ir::Expr& expr) {
    if (is_draw(expr)) draws.push_back(&expr);
  });
  return draws;
}

// The rule of draws_from_full_iotas, over the launch's draws.
bool drawn_once(const std::vector<const ir::Expr*>& draws, const std::vector<ir::Dim>& dims) {
  return dims.size() >= 2 && std::count_if(draws.begin(), draws.end(), [&](const ir::Expr* draw) {
                               return draw->type.dims == dims;
                             }) == 1;
}

}  // namespace

bool lands_on_sublanes(const ir::Call& call) {
  if (call.args.empty() || call.args[0]->type.kind != ir::TypeKind::kTileTensor) return false;
  const ir::Type& operand = call.args[0]->type;
  const int rank = operand.tile_rank();
  if (rank < 2) return false;
  auto is_last = [&](const ir::ExprPtr& axis) {
    if (axis->kind == ir::ExprKind::kNoneImm) return false;
    const int64_t a = ir::int_literal(*axis, rank);
    return a == rank - 1 || a == -1;
  };
  switch (call.op) {
    case ir::Intrinsic::kSqueeze:
      return is_last(call.args[1]);
    case ir::Intrinsic::kReshape:
      return call.type.kind == ir::TypeKind::kTileTensor &&
             operand.dims.back() == ir::Dim::unit() &&
             call.type.dims == std::vector<ir::Dim>(operand.dims.begin(), operand.dims.end() - 1);
    case ir::Intrinsic::kSoftmax:  // keep their operand's axes
    case ir::Intrinsic::kLogSoftmax:
    case ir::Intrinsic::kDot:
      return false;
    default: {
      if (!ir::reduces_along_axis(call.op)) return false;
      const auto* keep = call.args[2]->as<ir::BoolImm>();
      return is_last(call.args[1]) && !(keep && keep->value);
    }
  }
}

namespace {

// Whether `value` is not a mask.
bool holds_numbers(const ir::ExprPtr& value) {
  return value && value->type.kind == ir::TypeKind::kTileTensor &&
         value->type.dtype != ir::ScalarType::kBool;
}

// A row of values read from memory, which Mosaic lays out along lanes: a load that keeps one
// axis of its array and adds unit ones (`bias[tile_n]`, `bias[None, :]`), or a name every
// definition of which is one. A lane reduction's result is laid out along sublanes instead.
bool loaded_row(const ir::ExprPtr& value, const Definitions& definitions, int depth = 0) {
  if (!holds_numbers(value) || depth > 8) return false;
  if (const auto* ref = value->as<ir::VarRef>()) {
    const auto defs = definitions.of.find(ref->binding);
    if (defs == definitions.of.end() || defs->second.empty()) return false;
    return std::all_of(defs->second.begin(), defs->second.end(), [&](const ir::ExprPtr* def) {
      return loaded_row(*def, definitions, depth + 1);
    });
  }
  const auto* load = value->as<ir::Load>();
  if (load == nullptr) return false;
  int axes = 0;  // the axes of the array the load keeps, besides the unit ones it adds
  for (const ir::IndexItem& item : load->index) {
    using Kind = ir::IndexItem::Kind;
    if (item.kind == Kind::kVariadic || item.kind == Kind::kGather) return false;
    axes += item.kind == Kind::kTile || item.kind == Kind::kFull || item.kind == Kind::kSlice;
  }
  return axes == 1;
}

// The values an expression combines elementwise or reshapes (not a load's indices).
std::vector<const ir::ExprPtr*> operands(const ir::Expr& expr) {
  if (const auto* unary = expr.as<ir::Unary>()) return {&unary->operand};
  if (const auto* binary = expr.as<ir::Binary>()) return {&binary->lhs, &binary->rhs};
  if (const auto* compare = expr.as<ir::Compare>()) return {&compare->lhs, &compare->rhs};
  std::vector<const ir::ExprPtr*> args;
  if (const auto* call = expr.as<ir::Call>()) {
    for (const ir::ExprPtr& arg : call->args) args.push_back(&arg);
  }
  return args;
}

// The expressions of the branches of `if`s, whose arrays a call may pass as None (a host-level
// `if bias is not None:`): a VMEM formula cannot read their dtypes. Each branch is walked once,
// nested `if`s with it.
class ConditionalExprs final : public ir::Visitor {
 public:
  std::set<const ir::Expr*> found;
  void visit_node(const ir::If& node) override {
    for (const ir::Block* branch : {&node.then_body, &node.else_body}) {
      ir::for_each_expr(*branch, [&](const ir::Expr& expr) { found.insert(&expr); });
    }
  }
};

// The rows of values that meet a block of two or more axes where the v5 compilers move them
// through the same scratch as a lane reduction's result (LaneMove; libtpu 0.0.42.1 on v5e,
// each 36 KiB beyond what the launch's other terms count, none on v6e and v7x): a 16-bit or
// 8-bit row broadcast against a block (`x + bias[None, :]`: bias_gelu, row_gate, jagged_add,
// tile_unpack, pack_blend) and a float row made a column (`x_scale[tile_m][:, None]`:
// int8_matmul), each at any length. A 32-bit row broadcast against a block (a norm's weight)
// takes none in the samples measured, nor an index row made a column (`tile.index[:, None]`,
// an iota). A row stored into a block of several rows (`out[0, tile_n] = x[tile_n]`:
// stacked_rows, optional_col_sums) takes it too, but a row stored as the block's only row
// (block_means) does not; not counted yet.
void rows_meeting_blocks(const Launch& launch, const Definitions& definitions,
                         std::vector<LaneMove>& found) {
  // `narrow`: at any length; else when one of the arrays the row is loaded from is narrow (its
  // dtype known only while JAX traces).
  const auto add = [&](const ir::ExprPtr& row, bool narrow) {
    LaneMove move{row->type.dims.back(), narrow};
    move.by_rows = false;
    if (!narrow) {
      std::set<int> seen;
      source_arrays(row, definitions, seen, move.if_narrow);
      if (move.if_narrow.empty()) return;
    }
    if (std::find(found.begin(), found.end(), move) == found.end()) found.push_back(move);
  };
  ConditionalExprs conditional;
  conditional.visit(launch.tile_loop().body);
  ir::for_each_expr(launch.tile_loop().body, [&](const ir::Expr& expr) {
    if (expr.type.kind != ir::TypeKind::kTileTensor || expr.type.dims.size() < 2) return;
    const auto* call = expr.as<ir::Call>();
    if (call != nullptr && call->op == ir::Intrinsic::kUnsqueeze &&
        call->args[0]->type.dims.size() == 1 && loaded_row(call->args[0], definitions) &&
        ir::int_literal(*call->args[1], 0) == 1) {
      const std::optional<ir::ScalarType>& dtype = call->args[0]->type.dtype;
      if (!dtype || ir::is_floating(*dtype)) add(call->args[0], true);  // a float row made a column
      return;
    }
    for (const ir::ExprPtr* operand : operands(expr)) {
      if (!loaded_row(*operand, definitions)) continue;
      const std::optional<ir::ScalarType>& dtype = (*operand)->type.dtype;
      if (!dtype) {
        if (!conditional.found.contains(operand->get())) add(*operand, false);
      } else if (ir::dtype_bits(ir::device_dtype(*dtype)) < 32) {
        add(*operand, true);
      }
    }
  });
}

}  // namespace

std::vector<LaneMove> launch_lane_moves(const Launch& launch) {
  Definitions definitions;
  definitions.visit(launch.tile_loop().body);
  std::vector<LaneMove> found;
  rows_meeting_blocks(launch, definitions, found);
  ir::for_each_expr(launch.tile_loop().body, [&](const ir::Expr& expr) {
    const auto* call = expr.as<ir::Call>();
    if (call == nullptr || !lands_on_sublanes(*call)) return;
    const ir::Type& operand = call->args[0]->type;
    LaneMove move{operand.dims[operand.dims.size() - 2]};
    const std::optional<ir::ScalarType>& dtype = call->type.dtype;
    if (dtype) {
      const ir::ScalarType held = ir::device_dtype(*dtype);  // float16 as float32
      move.narrow = held != ir::ScalarType::kBool && ir::dtype_bits(held) < 32;
    } else {
      std::set<int> seen;
      source_arrays(call->args[0], definitions, seen, move.if_narrow);
    }
    if (std::find(found.begin(), found.end(), move) == found.end()) found.push_back(move);
  });
  return found;
}

bool draws_from_full_iotas(const Launch& launch, const std::vector<ir::Dim>& dims) {
  return drawn_once(launch_draws(launch), dims);
}

RandomDraws launch_random_draws(const Launch& launch) {
  const std::vector<const ir::Expr*> draws = launch_draws(launch);  // one walk for all of them
  RandomDraws found;
  found.draws = static_cast<int>(draws.size());
  std::vector<bool> normal;  // per held shape drawn several times: a randn among its draws
  std::vector<HeldBlock> shared;
  for (const ir::Expr* draw : draws) {
    if (drawn_once(draws, draw->type.dims)) {  // counters from full-shape iotas
      found.held.push_back({draw->type.dims, kFullIotaDrawHalves});
      continue;
    }
    const bool randn = draw->as<ir::Call>()->op == ir::Intrinsic::kRandn;
    std::vector<ir::Dim> dims = with_rows(draw->type.dims);
    const auto same = std::find_if(shared.begin(), shared.end(),
                                   [&](const HeldBlock& held) { return held.dims == dims; });
    if (same != shared.end()) {
      const size_t i = static_cast<size_t>(same - shared.begin());
      same->halves += kFurtherDrawHalves;
      if (randn && !normal[i]) same->halves += kNormalDrawHalves - kDrawHalves;
      normal[i] = normal[i] || randn;
      continue;
    }
    const bool flat = draw->type.dims.size() < 2;
    shared.push_back({std::move(dims), flat    ? kFlatDrawHalves
                                       : randn ? kNormalDrawHalves
                                               : kDrawHalves});
    normal.push_back(randn);
  }
  found.held.insert(found.held.end(), shared.begin(), shared.end());
  return found;
}

int precise_product_count(const Launch& launch) {
  return static_cast<int>(precise_products(launch).size());
}

}  // namespace helionc::passes
