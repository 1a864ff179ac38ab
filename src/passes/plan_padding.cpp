#include "passes/plan_padding.h"

#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "ir/dtype.h"
#include "ir/visitor.h"
#include "ops/operations.h"
#include "passes/launch_plan.h"
#include "passes/shape_facts.h"

namespace helionc::passes {

using ir::Intrinsic;

namespace {

bool finite_pad(Pad pad) { return pad == Pad::kZero || pad == Pad::kOne || pad == Pad::kFinite; }

// The axis of `type` that tile dimension `tile_dim` indexes, or -1 (also when it indexes two).
int axis_of(const ir::Type& type, int tile_dim) {
  if (type.kind != ir::TypeKind::kTileTensor) return -1;
  int found = -1;
  for (size_t a = 0; a < type.dims.size(); ++a) {
    const ir::Dim& dim = type.dims[a];
    if (dim.kind == ir::Dim::Kind::kVariadic) return -1;
    if (dim.kind == ir::Dim::Kind::kTile && dim.tile_dim == tile_dim) {
      if (found >= 0) return -1;
      found = static_cast<int>(a);
    }
  }
  return found;
}

bool has_tile(const ir::Type& type, int tile_dim) {
  if (type.kind != ir::TypeKind::kTileTensor) return false;
  for (const ir::Dim& dim : type.dims) {
    if (dim.kind == ir::Dim::Kind::kVariadic) return true;  // may be any tile: never "absent"
    if (dim.kind == ir::Dim::Kind::kTile && dim.tile_dim == tile_dim) return true;
  }
  return false;
}

// A padding as the ops table's facts see it (ops/operations.h), and back.
ops::Known known_of_pad(Pad pad) {
  switch (pad) {
    case Pad::kZero:
      return ops::Known::kZero;
    case Pad::kOne:
      return ops::Known::kOne;
    case Pad::kNegInf:
      return ops::Known::kNegInf;
    case Pad::kPosInf:
      return ops::Known::kPosInf;
    case Pad::kFinite:
      return ops::Known::kFinite;
    case Pad::kGarbage:
      break;
  }
  return ops::Known::kUnknown;
}

Pad pad_of_known(ops::Known known) {
  switch (known) {
    case ops::Known::kZero:
      return Pad::kZero;
    case ops::Known::kOne:
      return Pad::kOne;
    case ops::Known::kNegInf:
      return Pad::kNegInf;
    case ops::Known::kPosInf:
      return Pad::kPosInf;
    case ops::Known::kFinite:
      return Pad::kFinite;
    case ops::Known::kUnknown:
      break;
  }
  return Pad::kGarbage;
}

// Unknown dtypes (known only while JAX traces) count as floating, as the masks' fills do.
bool floating(const ir::Expr& expr) {
  return !expr.type.dtype || ir::is_floating(*expr.type.dtype);
}

// What the valid elements of a value can be: never -inf, never +inf (either also means "never
// NaN"). Finite means both.
struct Range {
  bool above_neg_inf = false;
  bool below_pos_inf = false;
  bool finite() const { return above_neg_inf && below_pos_inf; }
  bool operator==(const Range&) const = default;
};
constexpr Range kFiniteRange{true, true};
constexpr Range kUnknownRange{false, false};
Range meet(Range a, Range b) {
  return {a.above_neg_inf && b.above_neg_inf, a.below_pos_inf && b.below_pos_inf};
}

// The range of a unary operation's result from the ops table's facts, for an operand of range
// `a`: finite where finite operands give finite results and each infinity the operand may hold
// maps to no infinity on that side. An operand unbounded on both sides may be NaN (inf - inf).
Range operation_range(const ops::Facts& facts, Range a) {
  const auto finite = [](ops::Known k) {
    return k == ops::Known::kFinite || k == ops::Known::kZero || k == ops::Known::kOne;
  };
  if (!(a.above_neg_inf || a.below_pos_inf) || !finite(facts.at_finite)) return kUnknownRange;
  const auto not_neg_inf = [&](ops::Known k) { return finite(k) || k == ops::Known::kPosInf; };
  const auto not_pos_inf = [&](ops::Known k) { return finite(k) || k == ops::Known::kNegInf; };
  return {(a.above_neg_inf || not_neg_inf(facts.at_neg_inf)) &&
              (a.below_pos_inf || not_neg_inf(facts.at_pos_inf)),
          (a.above_neg_inf || not_pos_inf(facts.at_neg_inf)) &&
              (a.below_pos_inf || not_pos_inf(facts.at_pos_inf))};
}

// The padding a scalar constant gives when broadcast: its own value class.
std::optional<Pad> constant_pad(const ir::Expr& expr) {
  double value = 0;
  if (const auto* i = expr.as<ir::IntImm>()) {
    value = static_cast<double>(i->value);
  } else if (const auto* f = expr.as<ir::FloatImm>()) {
    value = f->value;
  } else if (const auto* b = expr.as<ir::BoolImm>()) {
    value = b->value ? 1 : 0;
  } else if (const auto* u = expr.as<ir::Unary>(); u && u->op == ir::UnaryOp::kNeg) {
    const std::optional<Pad> inner = constant_pad(*u->operand);
    if (!inner) return std::nullopt;
    switch (*inner) {
      case Pad::kNegInf:
        return Pad::kPosInf;
      case Pad::kPosInf:
        return Pad::kNegInf;
      case Pad::kZero:
        return Pad::kZero;
      default:
        return Pad::kFinite;
    }
  } else {
    return std::nullopt;
  }
  if (std::isnan(value)) return Pad::kGarbage;
  if (std::isinf(value)) return value < 0 ? Pad::kNegInf : Pad::kPosInf;
  if (value == 0) return Pad::kZero;
  if (value == 1) return Pad::kOne;
  return Pad::kFinite;
}

Pad negate(Pad pad) {
  switch (pad) {
    case Pad::kNegInf:
      return Pad::kPosInf;
    case Pad::kPosInf:
      return Pad::kNegInf;
    case Pad::kOne:
      return Pad::kFinite;
    default:
      return pad;
  }
}

Pad add(Pad a, Pad b) {
  if (a == Pad::kGarbage || b == Pad::kGarbage) return Pad::kGarbage;
  if (a == Pad::kZero) return b;
  if (b == Pad::kZero) return a;
  if (finite_pad(a) && finite_pad(b)) return Pad::kFinite;
  if ((a == Pad::kNegInf || b == Pad::kNegInf) && a != Pad::kPosInf && b != Pad::kPosInf) {
    return Pad::kNegInf;
  }
  if ((a == Pad::kPosInf || b == Pad::kPosInf) && a != Pad::kNegInf && b != Pad::kNegInf) {
    return Pad::kPosInf;
  }
  return Pad::kGarbage;  // inf - inf
}

Pad multiply(Pad a, Pad b) {
  if (a == Pad::kGarbage || b == Pad::kGarbage) return Pad::kGarbage;
  if (a == Pad::kOne) return b;
  if (b == Pad::kOne) return a;
  if (finite_pad(a) && finite_pad(b)) {
    return a == Pad::kZero || b == Pad::kZero ? Pad::kZero : Pad::kFinite;
  }
  return Pad::kGarbage;  // inf times a value of unknown sign, or 0 * inf
}

// torch.maximum (is_max) or torch.minimum of two paddings.
Pad extreme(Pad a, Pad b, bool is_max) {
  const Pad neutral = is_max ? Pad::kNegInf : Pad::kPosInf;
  const Pad absorbing = is_max ? Pad::kPosInf : Pad::kNegInf;
  if (a == Pad::kGarbage || b == Pad::kGarbage) return Pad::kGarbage;
  if (a == neutral) return b;
  if (b == neutral) return a;
  if (a == absorbing || b == absorbing) return absorbing;
  return a == b ? a : Pad::kFinite;
}

}  // namespace

std::string_view pad_name(Pad pad) {
  switch (pad) {
    case Pad::kGarbage:
      return "garbage";
    case Pad::kZero:
      return "0";
    case Pad::kOne:
      return "1";
    case Pad::kNegInf:
      return "lowest";
    case Pad::kPosInf:
      return "highest";
    case Pad::kFinite:
      return "finite";
  }
  return "?";
}

Pad identity_of(Intrinsic op) {
  switch (op) {
    case Intrinsic::kProd:
      return Pad::kOne;
    case Intrinsic::kAmax:
    case Intrinsic::kArgmax:
    case Intrinsic::kSoftmax:
    case Intrinsic::kLogSoftmax:
      return Pad::kNegInf;
    case Intrinsic::kAmin:
    case Intrinsic::kArgmin:
      return Pad::kPosInf;
    default:  // sums, means, products' operands
      return Pad::kZero;
  }
}

bool reduction_accepts(Intrinsic op, Pad padding) { return padding == identity_of(op); }

std::pair<bool, bool> product_accepts(Pad lhs, Pad rhs) {
  // A zero times a finite value adds nothing; garbage may be NaN, which zero does not cancel.
  const bool fine =
      (lhs == Pad::kZero && finite_pad(rhs)) || (rhs == Pad::kZero && finite_pad(lhs));
  if (fine) return {true, true};
  return {lhs == Pad::kZero, rhs == Pad::kZero};
}

// ---- The facts ------------------------------------------------------------------------------

struct PaddingFacts::State {
  State(const ir::Kernel& kernel, const Launch& launch, const LaunchSchedule& schedule)
      : kernel(kernel), launch(launch), schedule(schedule), shapes(kernel) {
    for (size_t g = 0; g < launch.grid.size(); ++g) {
      if (schedule.dim(g).partial != PartialBlocks::kNever) partial.insert(launch.grid[g].tile_dim);
    }
    for (const DefinitionMask& mask : schedule.definition_masks) {
      masks[{mask.binding, mask.tile_dim}] = mask.fill;
    }
    const ir::Block& body = launch.tile_loop().body;
    walk_ranges(body);
    for (int t : partial) walk_pads(body, t);
  }

  // ---- Ranges of valid elements ----
  Range range(const ir::Expr& expr) {
    if (const std::optional<Pad> constant = constant_pad(expr)) {
      switch (*constant) {
        case Pad::kNegInf:
          return {false, true};
        case Pad::kPosInf:
          return {true, false};
        case Pad::kGarbage:
          return kUnknownRange;
        default:
          return kFiniteRange;
      }
    }
    if (!floating(expr)) return kFiniteRange;  // integers and booleans
    if (const auto* ref = expr.as<ir::VarRef>()) {
      const auto origin = kernel.bindings[ref->binding].origin;
      if (origin != ir::Binding::Origin::kDevice) return kFiniteRange;  // inputs are finite
      auto it = ranges.find(ref->binding);
      return it == ranges.end() ? kUnknownRange : it->second;
    }
    if (expr.as<ir::Load>()) return kFiniteRange;
    if (const auto* u = expr.as<ir::Unary>()) {
      const Range r = range(*u->operand);
      return u->op == ir::UnaryOp::kNeg ? Range{r.below_pos_inf, r.above_neg_inf} : r;
    }
    if (const auto* b = expr.as<ir::Binary>()) {
      const Range l = range(*b->lhs);
      const Range r = range(*b->rhs);
      switch (b->op) {
        case ir::BinaryOp::kAdd:
          return {l.above_neg_inf && r.above_neg_inf, l.below_pos_inf && r.below_pos_inf};
        case ir::BinaryOp::kSub:
          return {l.above_neg_inf && r.below_pos_inf, l.below_pos_inf && r.above_neg_inf};
        case ir::BinaryOp::kMul:
          return l.finite() && r.finite() ? kFiniteRange : kUnknownRange;
        default:
          return kUnknownRange;
      }
    }
    const auto* call = expr.as<ir::Call>();
    if (call == nullptr) return kUnknownRange;
    const auto arg = [&](size_t i) { return range(*call->args[i]); };
    switch (call->op) {
      case Intrinsic::kCast:
      case Intrinsic::kUnsqueeze:
      case Intrinsic::kSqueeze:
      case Intrinsic::kPermute:
      case Intrinsic::kReshape:
      case Intrinsic::kBroadcastTo:
      case Intrinsic::kSum:
      case Intrinsic::kMean:
      case Intrinsic::kAmax:
      case Intrinsic::kAmin:
        return arg(0);
      case Intrinsic::kFull:
        return arg(0);
      case Intrinsic::kFullLike:
        return arg(1);
      case Intrinsic::kMaximum: {
        const Range a = arg(0);
        const Range b = arg(1);
        return {a.above_neg_inf || b.above_neg_inf, a.below_pos_inf && b.below_pos_inf};
      }
      case Intrinsic::kMinimum: {
        const Range a = arg(0);
        const Range b = arg(1);
        return {a.above_neg_inf && b.above_neg_inf, a.below_pos_inf || b.below_pos_inf};
      }
      case Intrinsic::kWhere:
        return meet(arg(1), arg(2));
      case Intrinsic::kTakeAlong:  // elements of the value
        return arg(0);
      case Intrinsic::kStack: {
        Range all = kFiniteRange;
        for (const ir::ExprPtr& value : call->args[0]->as<ir::TupleExpr>()->elements) {
          all = meet(all, range(*value));
        }
        return all;
      }
      case Intrinsic::kDot:
        return arg(0).finite() && arg(2).finite() ? kFiniteRange : kUnknownRange;
      default: {
        const ops::Operation* operation = ops::find(call->op);
        if (operation == nullptr || operation->arity != 1) return kUnknownRange;
        return operation_range(operation->facts, arg(0));
      }
    }
  }

  void walk_ranges(const ir::Block& block) {
    for (const ir::StmtPtr& stmt : block) {
      if (const auto* let = stmt->as<ir::Let>()) {
        if (!let->unpack) ranges[let->targets[0]] = range(*let->value);
      } else if (const auto* loop = stmt->as<ir::TileLoop>()) {
        walk_loop_ranges(loop->body, loop->carried);
      } else if (const auto* loop = stmt->as<ir::StaticLoop>()) {
        walk_loop_ranges(loop->body, loop->carried);
      } else if (const auto* branch = stmt->as<ir::If>()) {
        walk_ranges(branch->then_body);
        walk_ranges(branch->else_body);
        for (const ir::If::Merge& merge : branch->merges) {
          ranges[merge.result] =
              meet(binding_range(merge.then_value), binding_range(merge.else_value));
        }
      }
    }
  }

  // A carried value's range holds for every iteration: start from the initial value's and
  // weaken until the body gives back no less (each flag only falls, so this ends).
  void walk_loop_ranges(const ir::Block& body, const std::vector<ir::TileLoop::Carry>& carried) {
    for (const auto& carry : carried) ranges[carry.phi] = binding_range(carry.init);
    for (int round = 0; round < 4; ++round) {
      walk_ranges(body);
      bool changed = false;
      for (const auto& carry : carried) {
        const Range next = meet(ranges[carry.phi], binding_range(carry.next));
        changed |= !(next == ranges[carry.phi]);
        ranges[carry.phi] = next;
      }
      if (!changed) break;
      if (round == 3) {
        for (const auto& carry : carried) ranges[carry.phi] = kUnknownRange;
        walk_ranges(body);
      }
    }
    for (const auto& carry : carried) ranges[carry.result] = ranges[carry.phi];
  }

  Range binding_range(int binding) {
    const auto origin = kernel.bindings[binding].origin;
    if (origin != ir::Binding::Origin::kDevice) return kFiniteRange;
    auto it = ranges.find(binding);
    return it == ranges.end() ? kUnknownRange : it->second;
  }

  // ---- Padding ----
  Pad pad(const ir::Expr& expr, int t) {
    if (!has_tile(expr.type, t)) {
      // Broadcast along the dimension: the padding holds the value itself.
      if (const std::optional<Pad> constant = constant_pad(expr)) return *constant;
      return range(expr).finite() ? Pad::kFinite : Pad::kGarbage;
    }
    if (axis_of(expr.type, t) < 0) return Pad::kGarbage;
    if (const auto* ref = expr.as<ir::VarRef>()) {
      auto it = pads.find({ref->binding, t});
      return it == pads.end() ? Pad::kGarbage : it->second;
    }
    if (const auto* load = expr.as<ir::Load>())
      return zero_padded(*load, t) ? Pad::kZero : Pad::kGarbage;
    if (const auto* attr = expr.as<ir::TileAttr>()) {
      return attr->attr == ir::TileAttrKind::kIndex ? Pad::kFinite : Pad::kGarbage;
    }
    const bool floats = floating(expr);
    const auto no_infinity = [&](Pad p) {
      return !floats && (p == Pad::kNegInf || p == Pad::kPosInf) ? Pad::kGarbage : p;
    };
    if (const auto* u = expr.as<ir::Unary>()) {
      if (u->op == ir::UnaryOp::kNeg) return no_infinity(negate(pad(*u->operand, t)));
      if (u->op == ir::UnaryOp::kPos) return pad(*u->operand, t);
      return Pad::kGarbage;
    }
    if (const auto* b = expr.as<ir::Binary>()) {
      const Pad l = pad(*b->lhs, t);
      const Pad r = pad(*b->rhs, t);
      switch (b->op) {
        case ir::BinaryOp::kAdd:
          return no_infinity(add(l, r));
        case ir::BinaryOp::kSub:
          return no_infinity(add(l, negate(r)));
        case ir::BinaryOp::kMul:
          return no_infinity(multiply(l, r));
        case ir::BinaryOp::kDiv:
          return r == Pad::kOne ? no_infinity(l) : Pad::kGarbage;
        default:
          return Pad::kGarbage;
      }
    }
    const auto* call = expr.as<ir::Call>();
    if (call == nullptr) return Pad::kGarbage;
    const auto arg = [&](size_t i) { return pad(*call->args[i], t); };
    switch (call->op) {
      case Intrinsic::kCast: {
        // Infinities stay infinite between floating types only (an integer's "lowest" is no -inf).
        const Pad p = arg(0);
        return finite_pad(p) || (floats && floating(*call->args[0])) ? p : Pad::kGarbage;
      }
      case Intrinsic::kUnsqueeze:
      case Intrinsic::kSqueeze:
      case Intrinsic::kPermute:
      case Intrinsic::kBroadcastTo:
        return arg(0);
      case Intrinsic::kFull:
        return no_infinity(arg(0));
      case Intrinsic::kFullLike:
        return no_infinity(arg(1));
      case Intrinsic::kMaximum:
      case Intrinsic::kMinimum:
        return no_infinity(extreme(arg(0), arg(1), call->op == Intrinsic::kMaximum));
      case Intrinsic::kWhere: {
        const Pad a = arg(1);
        const Pad b = arg(2);
        if (a == b) return a;
        return finite_pad(a) && finite_pad(b) ? Pad::kFinite : Pad::kGarbage;
      }
      case Intrinsic::kStack: {
        // The stacked values keep their padding; the result has one kind only if all agree.
        const auto& values = call->args[0]->as<ir::TupleExpr>()->elements;
        const Pad first = pad(*values.front(), t);
        bool same = true;
        bool finite = true;
        for (const ir::ExprPtr& value : values) {
          const Pad p = pad(*value, t);
          same = same && p == first;
          finite = finite && finite_pad(p);
        }
        return same ? first : finite ? Pad::kFinite : Pad::kGarbage;
      }
      case Intrinsic::kSum:
      case Intrinsic::kMean:
      case Intrinsic::kAmax:
      case Intrinsic::kAmin: {
        // Along another axis (this one survives): zeros sum to zero, a constant is its own max.
        const Pad p = arg(0);
        if (p == Pad::kZero || p == Pad::kFinite) return p;
        const bool extreme = call->op == Intrinsic::kAmax || call->op == Intrinsic::kAmin;
        return extreme || call->op == Intrinsic::kMean ? p : Pad::kGarbage;
      }
      case Intrinsic::kDot: {
        // Contracted along another axis: each sum multiplies padding by real (finite) values.
        const Pad a = arg(0);
        const Pad b = arg(2);
        if (!finite_pad(a) || !finite_pad(b)) return Pad::kGarbage;
        return a == Pad::kZero || b == Pad::kZero ? Pad::kZero : Pad::kFinite;
      }
      default: {
        // A unary operation of the ops table: what its facts say it does to the padding.
        const ops::Operation* operation = ops::find(call->op);
        if (operation == nullptr || operation->arity != 1) return Pad::kGarbage;
        return pad_of_known(operation->facts.apply(known_of_pad(arg(0))));
      }
    }
  }

  void walk_pads(const ir::Block& block, int t) {
    for (const ir::StmtPtr& stmt : block) {
      if (const auto* let = stmt->as<ir::Let>()) {
        if (let->unpack) continue;
        const int binding = let->targets[0];
        auto mask = masks.find({binding, t});
        pads[{binding, t}] = mask != masks.end() ? mask->second : pad(*let->value, t);
      } else if (const auto* loop = stmt->as<ir::TileLoop>()) {
        walk_pads(loop->body, t);  // carried values: garbage (not followed across iterations)
      } else if (const auto* loop = stmt->as<ir::StaticLoop>()) {
        walk_pads(loop->body, t);
      } else if (const auto* branch = stmt->as<ir::If>()) {
        walk_pads(branch->then_body, t);
        walk_pads(branch->else_body, t);
      }
    }
  }

  // A load (of an input zero-padded on the host, the schedule says) along a loop from 0 to the
  // end of that array axis: every element past the loop's range is a zero.
  bool zero_padded(const ir::Load& load, int t) {
    const auto use = launch.loads.find(&load);
    if (use == launch.loads.end() || use->second.output) return false;
    if (!schedule.input(use->second.index).zero_padded) return false;
    const ir::TileDim& dim = kernel.tile_dims[t];
    if (ir::has_begin(dim)) return false;
    const Operand& array = launch.inputs[use->second.index].operand;
    for (const ViewAxis& view : array.view) {
      if (view.kind == ViewAxis::Kind::kTile && view.tile_dim == t) {
        return shapes.equal_sizes(shapes.size_of(dim.extent),
                                  shapes.axis_size(array.binding, view.array_axis));
      }
    }
    return false;
  }

  const ir::Kernel& kernel;
  const Launch& launch;
  const LaunchSchedule& schedule;
  const ShapeFacts shapes;
  std::set<int> partial;  // tile dimensions whose blocks can be partial
  std::map<std::pair<int, int>, Pad> masks;
  std::map<int, Range> ranges;
  std::map<std::pair<int, int>, Pad> pads;  // (binding, tile dimension)
};

PaddingFacts::PaddingFacts(const ir::Kernel& kernel, const Launch& launch,
                           const LaunchSchedule& schedule)
    : state_(std::make_unique<State>(kernel, launch, schedule)) {}

PaddingFacts::~PaddingFacts() = default;

Pad PaddingFacts::padding(const ir::Expr& expr, int axis) {
  const ir::Type& type = expr.type;
  if (type.kind != ir::TypeKind::kTileTensor || axis < 0 ||
      axis >= static_cast<int>(type.dims.size()) || type.dims[axis].kind != ir::Dim::Kind::kTile) {
    return Pad::kGarbage;
  }
  const int t = type.dims[axis].tile_dim;
  if (!state_->partial.contains(t)) return Pad::kGarbage;
  return state_->pad(expr, t);
}

// ---- Choosing the definition masks -----------------------------------------------------------

namespace {

// The local a mask site's operand reads, through casts: a use of a device binding of a plain
// Let whose type has the tile dimension once, or null.
const ir::VarRef* maskable_local(const ir::Kernel& kernel, const ir::Expr& operand, int t,
                                 const std::set<int>& defined_by_let) {
  const ir::Expr* value = &operand;
  while (const auto* call = value->as<ir::Call>()) {
    if (call->op != Intrinsic::kCast) return nullptr;
    value = call->args[0].get();
  }
  const auto* ref = value->as<ir::VarRef>();
  if (ref == nullptr || !defined_by_let.contains(ref->binding)) return nullptr;
  if (kernel.bindings[ref->binding].origin != ir::Binding::Origin::kDevice) return nullptr;
  return axis_of(ref->type, t) >= 0 ? ref : nullptr;
}

std::set<int> let_bindings(const ir::Block& body) {
  std::set<int> bound;
  struct Walker {
    std::set<int>& bound;
    void walk(const ir::Block& block) {
      for (const ir::StmtPtr& stmt : block) {
        if (const auto* let = stmt->as<ir::Let>(); let && !let->unpack)
          bound.insert(let->targets[0]);
        if (const auto* loop = stmt->as<ir::TileLoop>()) walk(loop->body);
        if (const auto* loop = stmt->as<ir::StaticLoop>()) walk(loop->body);
        if (const auto* branch = stmt->as<ir::If>()) {
          walk(branch->then_body);
          walk(branch->else_body);
        }
      }
    }
  } walker{bound};
  walker.walk(body);
  return bound;
}

}  // namespace

std::vector<DefinitionMask> plan_definition_masks(const ir::Kernel& kernel, const Launch& launch,
                                                  const LaunchSchedule& schedule) {
  LaunchSchedule trial = schedule;  // its definition_masks grow below
  trial.definition_masks.clear();
  const ir::Block& body = launch.tile_loop().body;
  const std::set<int> lets = let_bindings(body);
  // The first mask site (in evaluation order) whose operand a definition mask can serve gets
  // one; the facts are recomputed, and the next site is looked for. Each (local, dimension)
  // is masked at most once, so this ends.
  for (;;) {
    PaddingFacts facts(kernel, launch, trial);
    std::optional<DefinitionMask> next;
    std::set<std::pair<int, int>> masked;
    for (const DefinitionMask& mask : trial.definition_masks)
      masked.insert({mask.binding, mask.tile_dim});
    const auto consider = [&](const ir::Expr& operand, int axis, Pad fill) {
      if (next || axis < 0 || axis >= static_cast<int>(operand.type.dims.size())) return;
      const ir::Dim& dim = operand.type.dims[axis];
      if (operand.type.kind != ir::TypeKind::kTileTensor || dim.kind != ir::Dim::Kind::kTile)
        return;
      const int t = dim.tile_dim;
      // Only padding of unknown value is replaced: a local whose padding is known (zeros from the
      // host, an earlier mask's fill) keeps it for the sites it serves, and this one masks its own.
      const ir::VarRef* local = maskable_local(kernel, operand, t, lets);
      if (local == nullptr || masked.contains({local->binding, t})) return;
      if (facts.padding(*local, axis_of(local->type, t)) != Pad::kGarbage) return;
      next = DefinitionMask{local->binding, t, fill};
    };
    ir::for_each_expr(body, [&](const ir::Expr& expr) {
      const auto* call = expr.as<ir::Call>();
      if (call == nullptr || next) return;
      if (call->op == Intrinsic::kDot) {
        const ir::Expr& lhs = *call->args[0];
        const ir::Expr& rhs = *call->args[2];
        const int lhs_axis = ir::int_literal(*call->args[1], -1);
        const int rhs_axis = ir::int_literal(*call->args[3], -1);
        const auto [lhs_fine, rhs_fine] =
            product_accepts(facts.padding(lhs, lhs_axis), facts.padding(rhs, rhs_axis));
        if (!lhs_fine) consider(lhs, lhs_axis, Pad::kZero);
        if (!rhs_fine) consider(rhs, rhs_axis, Pad::kZero);
      } else if (ir::reduces_along_axis(call->op)) {                // reductions and softmax
        if (call->args[1]->kind == ir::ExprKind::kNoneImm) return;  // a whole-array reduction
        const int axis = ir::int_literal(*call->args[1], -1);
        const ir::Expr& operand = *call->args[0];
        if (!reduction_accepts(call->op, facts.padding(operand, axis))) {
          consider(operand, axis, identity_of(call->op));
        }
      }
    });
    if (!next) break;
    trial.definition_masks.push_back(*next);
  }
  return std::move(trial.definition_masks);
}

}  // namespace helionc::passes
