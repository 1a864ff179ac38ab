#include "passes/plan_skips.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "ir/visitor.h"
#include "ops/operations.h"

namespace helionc::passes {

namespace {

using ir::Intrinsic;

// What the evaluation knows of a value in a step whose mask keeps nothing.
enum class Fact {
  kUnknown,  // anything, NaN and infinities included
  kFinite,   // a finite value (loads, and arithmetic of finite values: see plan_skips.h)
  kNegInf,   // -inf everywhere
  kZero,     // 0 everywhere
  kOne,      // 1 everywhere
  kSame,     // the value the step received for carried value `same` (a phi), up to unit axes
};

struct Value {
  Fact fact = Fact::kUnknown;
  int same = -1;  // kSame: the phi binding

  bool finite() const {
    return fact == Fact::kFinite || fact == Fact::kZero || fact == Fact::kOne ||
           fact == Fact::kSame;
  }
  bool operator==(const Value& other) const = default;
};

constexpr Value kUnknown{Fact::kUnknown};
constexpr Value kFinite{Fact::kFinite};
constexpr Value kNegInf{Fact::kNegInf};
constexpr Value kZero{Fact::kZero};
constexpr Value kOne{Fact::kOne};

// A value as the ops table's facts see it (ops/operations.h), and back.
ops::Known known_of_value(const Value& value) {
  switch (value.fact) {
    case Fact::kNegInf:
      return ops::Known::kNegInf;
    case Fact::kZero:
      return ops::Known::kZero;
    case Fact::kOne:
      return ops::Known::kOne;
    default:
      return value.finite() ? ops::Known::kFinite : ops::Known::kUnknown;
  }
}

Value value_of_known(ops::Known known) {
  switch (known) {
    case ops::Known::kFinite:
      return kFinite;
    case ops::Known::kNegInf:
      return kNegInf;
    case ops::Known::kZero:
      return kZero;
    case ops::Known::kOne:
      return kOne;
    default:
      return kUnknown;
  }
}

// The other facts of arithmetic: finite operands give a finite result, anything else unknown.
Value combine(const Value& a, const Value& b) {
  return a.finite() && b.finite() ? kFinite : kUnknown;
}

// `tile.index` (through unit axes and broadcasts), optionally plus an integer: the tile
// dimension and the addend.
std::optional<std::pair<int, int64_t>> tile_index(const ir::Expr& expr) {
  const ir::Expr* e = &expr;
  while (const auto* call = e->as<ir::Call>()) {
    if (call->op != Intrinsic::kUnsqueeze && call->op != Intrinsic::kBroadcastTo) break;
    e = call->args[0].get();
  }
  if (const auto* attr = e->as<ir::TileAttr>()) {
    if (attr->attr == ir::TileAttrKind::kIndex) return std::pair<int, int64_t>{attr->tile_dim, 0};
    return std::nullopt;
  }
  const auto* sum = e->as<ir::Binary>();
  if (sum == nullptr || sum->op != ir::BinaryOp::kAdd) return std::nullopt;
  for (const auto& [index, addend] :
       {std::pair{sum->lhs, sum->rhs}, std::pair{sum->rhs, sum->lhs}}) {
    const auto* imm = addend->as<ir::IntImm>();
    auto tile = tile_index(*index);
    if (imm != nullptr && tile)
      return std::pair<int, int64_t>{tile->first, tile->second + imm->value};
  }
  return std::nullopt;
}

class SkipFinder {
 public:
  SkipFinder(const ir::Kernel& kernel, const Launch& launch, const InnerLoop& inner)
      : kernel_(kernel), launch_(launch), loop_(inner.tile_loop()) {}

  std::optional<StepSkip> find() {
    if (loop_.tile_dims.size() != 1 || loop_.carried.empty()) return std::nullopt;
    const ir::TileDim& dim = kernel_.tile_dims[loop_.tile_dims.front()];
    if (dim.variadic || dim.block.kind == ir::BlockSource::Kind::kGrid) return std::nullopt;
    // The first block must hold key 0 (the one the mask keeps for every query).
    if (ir::has_begin(dim)) return std::nullopt;
    // Only value definitions: a store, loop or branch in the body would have effects.
    for (const ir::StmtPtr& stmt : loop_.body) {
      const auto* let = stmt->as<ir::Let>();
      if (let == nullptr) return std::nullopt;
      if (let->targets.size() == 1) lets_[let->targets.front()] = let->value.get();
    }
    for (const ir::StmtPtr& stmt : loop_.body) {
      const auto* let = stmt->as<ir::Let>();
      if (!mask_ && !find_mask(*let->value)) return std::nullopt;
    }
    if (!mask_) return std::nullopt;
    for (const ir::TileLoop::Carry& carry : loop_.carried)
      env_[carry.phi] = {Fact::kSame, carry.phi};
    for (const ir::StmtPtr& stmt : loop_.body) {
      const auto* let = stmt->as<ir::Let>();
      const Value value = eval(*let->value);
      for (int target : let->targets) env_[target] = let->targets.size() == 1 ? value : kUnknown;
    }
    for (const ir::TileLoop::Carry& carry : loop_.carried) {
      const Value next = lookup(carry.next);
      if (next != Value{Fact::kSame, carry.phi}) return std::nullopt;
    }
    return skip_;
  }

 private:
  // Looks for the masking `where` in `expr`; false when a second one makes the rule unclear.
  bool find_mask(const ir::Expr& expr) {
    const auto* call = expr.as<ir::Call>();
    if (call != nullptr && call->op == Intrinsic::kWhere && call->args.size() == 3) {
      const auto* fill = call->args[2]->as<ir::FloatImm>();
      if (fill != nullptr && std::isinf(fill->value) && fill->value < 0) {
        if (auto skip = diagonal(*call->args[0])) {
          if (mask_ != nullptr) return false;
          mask_ = call;
          skip_ = *skip;
        }
      }
    }
    if (call != nullptr) {
      for (const ir::ExprPtr& arg : call->args) {
        if (!find_mask(*arg)) return false;
      }
    } else if (const auto* binary = expr.as<ir::Binary>()) {
      return find_mask(*binary->lhs) && find_mask(*binary->rhs);
    }
    return true;
  }

  // `outer.index + c >= inner.index` (or `inner.index <= outer.index + c`), c >= 0, through a
  // name bound in the body.
  std::optional<StepSkip> diagonal(const ir::Expr& cond) const {
    const ir::Expr* e = &cond;
    if (const auto* ref = e->as<ir::VarRef>()) {
      auto it = lets_.find(ref->binding);
      if (it == lets_.end()) return std::nullopt;
      e = it->second;
    }
    const auto* compare = e->as<ir::Compare>();
    if (compare == nullptr) return std::nullopt;
    const ir::Expr* high = nullptr;
    const ir::Expr* low = nullptr;
    if (compare->op == ir::CompareOp::kGe) {
      high = compare->lhs.get();
      low = compare->rhs.get();
    } else if (compare->op == ir::CompareOp::kLe) {
      high = compare->rhs.get();
      low = compare->lhs.get();
    } else {
      return std::nullopt;
    }
    const auto outer = tile_index(*high);
    const auto inner = tile_index(*low);
    if (!outer || !inner || inner->first != loop_.tile_dims.front()) return std::nullopt;
    const std::vector<int>& own = launch_.tile_loop().tile_dims;
    if (std::find(own.begin(), own.end(), outer->first) == own.end()) return std::nullopt;
    const ir::TileDim& outer_dim = kernel_.tile_dims[outer->first];
    if (outer_dim.variadic || outer_dim.block.kind == ir::BlockSource::Kind::kGrid) {
      return std::nullopt;
    }
    const int64_t offset = outer->second - inner->second;
    if (offset < 0) return std::nullopt;
    return StepSkip{outer->first, inner->first, offset};
  }

  Value lookup(int binding) const {
    auto it = env_.find(binding);
    return it == env_.end() ? kUnknown : it->second;
  }

  Value eval(const ir::Expr& expr) {
    if (&expr == mask_) return kNegInf;
    if (const auto* imm = expr.as<ir::FloatImm>()) {
      if (imm->value == 0) return kZero;
      if (imm->value == 1) return kOne;
      if (std::isinf(imm->value) && imm->value < 0) return kNegInf;
      return std::isfinite(imm->value) ? kFinite : kUnknown;
    }
    if (const auto* imm = expr.as<ir::IntImm>()) {
      return imm->value == 0 ? kZero : imm->value == 1 ? kOne : kFinite;
    }
    if (const auto* ref = expr.as<ir::VarRef>()) {
      // Values from before the loop (loads of the outer tile, host values) are not followed.
      return lookup(ref->binding);
    }
    if (expr.as<ir::Load>() != nullptr || expr.as<ir::TileAttr>() != nullptr) return kFinite;
    if (const auto* binary = expr.as<ir::Binary>()) {
      return binary_op(binary->op, eval(*binary->lhs), eval(*binary->rhs));
    }
    if (const auto* unary = expr.as<ir::Unary>()) {
      const Value operand = eval(*unary->operand);
      if (unary->op == ir::UnaryOp::kNeg) {
        return operand.fact == Fact::kZero ? kZero : operand.finite() ? kFinite : kUnknown;
      }
      return kUnknown;
    }
    if (const auto* call = expr.as<ir::Call>()) return call_op(*call);
    return kUnknown;
  }

  static Value binary_op(ir::BinaryOp op, const Value& a, const Value& b) {
    switch (op) {
      case ir::BinaryOp::kAdd:
        if (a.fact == Fact::kZero) return b;
        if (b.fact == Fact::kZero) return a;
        if ((a.fact == Fact::kNegInf && b.finite()) || (b.fact == Fact::kNegInf && a.finite())) {
          return kNegInf;
        }
        return combine(a, b);
      case ir::BinaryOp::kSub:
        if (b.fact == Fact::kZero) return a;
        if (a.fact == Fact::kNegInf && b.finite()) return kNegInf;
        if (a.fact == Fact::kSame && a == b) return kZero;
        return combine(a, b);
      case ir::BinaryOp::kMul:
        if (a.fact == Fact::kOne) return b;
        if (b.fact == Fact::kOne) return a;
        if ((a.fact == Fact::kZero && b.finite()) || (b.fact == Fact::kZero && a.finite())) {
          return kZero;
        }
        return combine(a, b);
      case ir::BinaryOp::kDiv:
        if (b.fact == Fact::kOne) return a;
        return kUnknown;  // a division may make an infinity
      default:
        return kUnknown;
    }
  }

  Value call_op(const ir::Call& call) {
    std::vector<Value> args;
    for (const ir::ExprPtr& arg : call.args) args.push_back(eval(*arg));
    auto all_finite = [&] {
      for (const Value& v : args) {
        if (!v.finite()) return kUnknown;
      }
      return kFinite;
    };
    switch (call.op) {
      case Intrinsic::kUnsqueeze:
      case Intrinsic::kSqueeze:
      case Intrinsic::kBroadcastTo:
        return args[0];
      case Intrinsic::kCast: {
        const Value& value = args[0];
        if (value.fact == Fact::kZero || value.fact == Fact::kOne) return value;
        const auto& to = call.type.dtype;
        const auto& from = call.args[0]->type.dtype;
        if (value.fact == Fact::kSame && to && from && *to == *from) return value;
        if (value.fact == Fact::kNegInf && to && ir::is_floating(*to)) return value;
        return value.finite() ? kFinite : kUnknown;
      }
      case Intrinsic::kMaximum:
        if (args[0].fact == Fact::kNegInf) return args[1];
        if (args[1].fact == Fact::kNegInf) return args[0];
        if (args[0] == args[1]) return args[0];
        return all_finite();
      case Intrinsic::kAmax:
      case Intrinsic::kAmin:
        if (args[0].fact == Fact::kNegInf || args[0].fact == Fact::kZero) return args[0];
        return args[0].finite() ? kFinite : kUnknown;
      case Intrinsic::kSum:
        if (args[0].fact == Fact::kZero || args[0].fact == Fact::kNegInf) return args[0];
        return args[0].finite() ? kFinite : kUnknown;
      case Intrinsic::kDot: {
        // dot(a, a_contracting, b, b_contracting, batch): a zero operand against a finite one.
        const Value& a = args[0];
        const Value& b = args.size() > 2 ? args[2] : kUnknown;
        if ((a.fact == Fact::kZero && b.finite()) || (b.fact == Fact::kZero && a.finite())) {
          return kZero;
        }
        return a.finite() && b.finite() ? kFinite : kUnknown;
      }
      default: {
        // A unary operation of the ops table: what its facts say it does to the operand.
        const ops::Operation* operation = ops::find(call.op);
        if (operation == nullptr || operation->arity != 1) return kUnknown;
        return value_of_known(operation->facts.apply(known_of_value(args[0])));
      }
    }
  }

  const ir::Kernel& kernel_;
  const Launch& launch_;
  const ir::TileLoop& loop_;
  std::map<int, const ir::Expr*> lets_;  // single-target definitions in the body
  std::map<int, Value> env_;
  const ir::Call* mask_ = nullptr;
  StepSkip skip_;
};

}  // namespace

void find_step_skips(const ir::Kernel& kernel, Launch& launch) {
  for (InnerLoop& inner : launch.inner_loops) {
    // Only loops directly in the launch's body: their steps are the launch's grid steps or
    // one loop in the kernel, where a shorter loop or `pl.when` is exact.
    if (!inner.top_level) continue;
    inner.skip = SkipFinder(kernel, launch, inner).find();
  }
}

}  // namespace helionc::passes
