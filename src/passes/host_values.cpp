#include "passes/host_values.h"

#include <limits>

#include "support/checked_int.h"

namespace helionc::passes {

namespace {

// Host code is straight-line, but a malformed IR must not recurse forever.
constexpr int kMaxDepth = 64;

}  // namespace

std::optional<int64_t> fold_int_binary(ir::BinaryOp op, int64_t lhs, int64_t rhs) {
  switch (op) {
    case ir::BinaryOp::kAdd:
      return checked_add(lhs, rhs);
    case ir::BinaryOp::kSub:
      return checked_sub(lhs, rhs);
    case ir::BinaryOp::kMul:
      return checked_mul(lhs, rhs);
    case ir::BinaryOp::kFloorDiv:
      return checked_floor_div(lhs, rhs);
    case ir::BinaryOp::kMod: {
      auto q = checked_floor_div(lhs, rhs);
      if (!q) return std::nullopt;
      auto multiple = checked_mul(*q, rhs);
      if (!multiple) return std::nullopt;
      return checked_sub(lhs, *multiple);
    }
    default:
      return std::nullopt;
  }
}

HostValues::HostValues(const ir::Kernel& kernel, std::map<int, ConcreteTensor> args)
    : kernel_(kernel), facts_(kernel), args_(std::move(args)) {}

std::optional<int64_t> HostValues::resolve(const SizeKey& key) const {
  switch (key.kind) {
    case SizeKey::Kind::kConst:
      return key.value;
    case SizeKey::Kind::kAxis: {
      auto arg = args_.find(key.root);
      if (arg == args_.end()) return std::nullopt;
      // Negative axes count from the end (tensors whose rank is known only while JAX traces).
      const int rank = static_cast<int>(arg->second.shape.size());
      const int axis = key.axis < 0 ? key.axis + rank : key.axis;
      if (axis < 0 || axis >= rank) return std::nullopt;
      return arg->second.shape[static_cast<size_t>(axis)];
    }
    case SizeKey::Kind::kOpaque:
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<int64_t> HostValues::axis_size(int binding, int axis) const {
  if (auto value = resolve(facts_.axis_size(binding, axis))) return value;
  // Shapes ShapeFacts leaves symbolic (`torch.empty([m * 2, n])`): evaluate the definition.
  const ir::Stmt* def = facts_.definition(facts_.shape_root(binding));
  if (def == nullptr) def = facts_.definition(binding);
  if (def == nullptr) return std::nullopt;
  if (const auto* alloc = def->as<ir::Alloc>()) return shape_element(alloc->shape, axis, 0);
  if (const auto* let = def->as<ir::Let>(); let && !let->unpack) {
    if (const auto* call = let->value->as<ir::Call>();
        call && call->op == ir::Intrinsic::kReshape && call->args.size() == 2) {
      return reshaped_axis(*call, axis, 0);
    }
  }
  return std::nullopt;
}

bool HostValues::absent_optional(int binding) const {
  const ir::Binding& b = kernel_.bindings[binding];
  return b.origin == ir::Binding::Origin::kParam && b.type.optional && !args_.contains(binding);
}

// Axis `axis` of `x.reshape(shape)`: the shape's entry, or for its `-1` the element count of x
// over the product of the other entries.
std::optional<int64_t> HostValues::reshaped_axis(const ir::Call& reshape, int axis,
                                                 int depth) const {
  const auto* tuple = reshape.args[1]->as<ir::TupleExpr>();
  if (tuple == nullptr || depth > kMaxDepth) return std::nullopt;
  const int rank = static_cast<int>(tuple->elements.size());
  if (axis < 0 || axis >= rank) return std::nullopt;
  auto entry = eval_int(tuple->elements[static_cast<size_t>(axis)], depth + 1);
  if (!entry || *entry != -1) return entry;
  const auto* base = reshape.args[0]->as<ir::VarRef>();
  if (base == nullptr) return std::nullopt;
  int base_rank = kernel_.bindings[base->binding].type.rank;
  if (base_rank < 0) {
    // A rank known only at trace time: the call's, for a parameter.
    auto arg = args_.find(facts_.shape_root(base->binding));
    if (arg == args_.end()) return std::nullopt;
    base_rank = static_cast<int>(arg->second.shape.size());
  }
  int64_t elements = 1;
  for (int a = 0; a < base_rank; ++a) {
    auto size = axis_size(base->binding, a);
    if (!size) return std::nullopt;
    auto product = checked_mul(elements, *size);
    if (!product) return std::nullopt;
    elements = *product;
  }
  int64_t others = 1;
  for (int a = 0; a < rank; ++a) {
    if (a == axis) continue;
    auto size = eval_int(tuple->elements[static_cast<size_t>(a)], depth + 1);
    if (!size || *size <= 0) return std::nullopt;
    auto product = checked_mul(others, *size);
    if (!product) return std::nullopt;
    others = *product;
  }
  return elements / others;
}

std::optional<int64_t> HostValues::int_value(const ir::ExprPtr& expr) const {
  return eval_int(expr, 0);
}

std::optional<int64_t> HostValues::shape_element(const ir::ExprPtr& shape, int axis,
                                                 int depth) const {
  if (depth > kMaxDepth || !shape) return std::nullopt;
  if (const auto* tuple = shape->as<ir::TupleExpr>()) {
    if (axis < 0) axis += static_cast<int>(tuple->elements.size());
    if (axis < 0 || axis >= static_cast<int>(tuple->elements.size())) return std::nullopt;
    return eval_int(tuple->elements[static_cast<size_t>(axis)], depth + 1);
  }
  if (const auto* call = shape->as<ir::Call>()) {
    if (call->op == ir::Intrinsic::kShapeOf && !call->args.empty()) {
      if (const auto* ref = call->args[0]->as<ir::VarRef>()) {
        if (axis < 0) {
          auto arg = args_.find(facts_.shape_root(ref->binding));
          if (arg == args_.end()) return std::nullopt;
          axis += static_cast<int>(arg->second.shape.size());
        }
        return axis_size(ref->binding, axis);
      }
    }
    return std::nullopt;
  }
  if (const auto* ref = shape->as<ir::VarRef>()) {
    const ir::Stmt* def = facts_.definition(ref->binding);
    const auto* let = def ? def->as<ir::Let>() : nullptr;
    if (let && !let->unpack) return shape_element(let->value, axis, depth + 1);
  }
  return std::nullopt;
}

std::optional<int64_t> HostValues::eval_int(const ir::ExprPtr& expr, int depth) const {
  if (depth > kMaxDepth || !expr) return std::nullopt;
  if (auto value = resolve(facts_.size_of(expr))) return value;
  if (const auto* ref = expr->as<ir::VarRef>()) {
    const ir::Stmt* def = facts_.definition(ref->binding);
    const auto* let = def ? def->as<ir::Let>() : nullptr;
    if (let == nullptr) return std::nullopt;
    if (!let->unpack) return eval_int(let->value, depth + 1);
    return shape_element(let->value, facts_.target_index(ref->binding), depth + 1);
  }
  if (const auto* call = expr->as<ir::Call>()) {
    if (call->op == ir::Intrinsic::kTunable && call->args.size() == 1) {
      const auto* index = call->args[0]->as<ir::IntImm>();
      if (index == nullptr || index->value < 0 ||
          static_cast<size_t>(index->value) >= kernel_.user_tunables.size()) {
        return std::nullopt;
      }
      const auto i = static_cast<size_t>(index->value);
      return i < tunable_values_.size() ? tunable_values_[i]
                                        : kernel_.user_tunables[i].default_value;
    }
    if (call->op == ir::Intrinsic::kNextPowerOf2 && call->args.size() == 1) {
      const std::optional<int64_t> n = eval_int(call->args[0], depth + 1);
      if (!n) return std::nullopt;
      int64_t power = 1;
      while (power < *n) {
        if (power > std::numeric_limits<int64_t>::max() / 2) return std::nullopt;
        power *= 2;
      }
      return power;
    }
    if (call->op == ir::Intrinsic::kSize && call->args.size() == 2) {
      const auto* tensor = call->args[0]->as<ir::VarRef>();
      const auto* axis = call->args[1]->as<ir::IntImm>();
      if (tensor && axis) {
        return shape_element(
            ir::Call::make(ir::Intrinsic::kShapeOf, {call->args[0]},
                           ir::Type::shape(kernel_.bindings[tensor->binding].type.rank),
                           call->range),
            static_cast<int>(axis->value), depth + 1);
      }
    }
    return std::nullopt;
  }
  if (const auto* get = expr->as<ir::TupleGet>()) {
    return shape_element(get->tuple, get->index, depth + 1);
  }
  if (const auto* unary = expr->as<ir::Unary>()) {
    auto value = eval_int(unary->operand, depth + 1);
    if (!value) return std::nullopt;
    if (unary->op == ir::UnaryOp::kNeg) return checked_sub(0, *value);
    if (unary->op == ir::UnaryOp::kPos) return value;
    return std::nullopt;
  }
  if (const auto* binary = expr->as<ir::Binary>()) {
    auto lhs = eval_int(binary->lhs, depth + 1);
    auto rhs = eval_int(binary->rhs, depth + 1);
    if (!lhs || !rhs) return std::nullopt;
    return fold_int_binary(binary->op, *lhs, *rhs);
  }
  return std::nullopt;
}

std::optional<ir::ScalarType> HostValues::dtype(int binding) const {
  return binding_dtype(binding, 0);
}

std::optional<ir::ScalarType> HostValues::binding_dtype(int binding, int depth) const {
  if (depth > kMaxDepth) return std::nullopt;
  if (auto arg = args_.find(binding); arg != args_.end()) return arg->second.dtype;
  const ir::Binding& b = kernel_.bindings[binding];
  if (b.type.dtype) return b.type.dtype;
  const ir::Stmt* def = facts_.definition(binding);
  if (def == nullptr) return std::nullopt;
  if (const auto* alloc = def->as<ir::Alloc>()) return eval_dtype(alloc->dtype, depth + 1);
  const auto* let = def->as<ir::Let>();
  if (let == nullptr || let->unpack) return std::nullopt;
  if (const auto* ref = let->value->as<ir::VarRef>()) return binding_dtype(ref->binding, depth + 1);
  if (const auto* call = let->value->as<ir::Call>()) {
    // A view of a tensor (`x.view(-1)`, `x.reshape(...)`) keeps its dtype.
    if (call->op == ir::Intrinsic::kReshape && !call->args.empty()) {
      if (const auto* ref = call->args[0]->as<ir::VarRef>()) {
        return binding_dtype(ref->binding, depth + 1);
      }
    }
  }
  return std::nullopt;
}

std::optional<ir::ScalarType> HostValues::eval_dtype(const ir::ExprPtr& expr, int depth) const {
  if (depth > kMaxDepth || !expr) return std::nullopt;
  if (const auto* imm = expr->as<ir::DtypeImm>()) return imm->dtype;
  if (const auto* ref = expr->as<ir::VarRef>()) {
    if (ref->type.kind == ir::TypeKind::kTensor) return binding_dtype(ref->binding, depth + 1);
    const ir::Stmt* def = facts_.definition(ref->binding);
    const auto* let = def ? def->as<ir::Let>() : nullptr;
    if (let && !let->unpack) return eval_dtype(let->value, depth + 1);
    return std::nullopt;
  }
  if (const auto* call = expr->as<ir::Call>()) {
    if (call->op == ir::Intrinsic::kDtypeOf && !call->args.empty()) {
      return eval_dtype(call->args[0], depth + 1);
    }
    if (call->op == ir::Intrinsic::kPromoteTypes && call->args.size() == 2) {
      auto a = eval_dtype(call->args[0], depth + 1);
      auto b = eval_dtype(call->args[1], depth + 1);
      if (a && b) return ir::promote(*a, *b);
    }
  }
  return std::nullopt;
}

}  // namespace helionc::passes
