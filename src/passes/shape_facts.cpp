#include "passes/shape_facts.h"

#include <algorithm>

namespace helionc::passes {

using ir::Call;
using ir::ExprPtr;
using ir::Intrinsic;

ShapeFacts::ShapeFacts(const ir::Kernel& kernel) : kernel_(kernel) {
  add_definitions(kernel.body);
  for (const ir::StmtPtr& stmt : kernel.body) {
    if (const auto* check = stmt->as<ir::Assert>()) add_asserted_equalities(check->condition);
  }
}

// The frontend lowers a chain `a == b == c` to `a == b and b == c`, which the `and` case covers.
void ShapeFacts::add_asserted_equalities(const ir::ExprPtr& condition) {
  if (const auto* both = condition->as<ir::Binary>(); both && both->op == ir::BinaryOp::kAnd) {
    add_asserted_equalities(both->lhs);
    add_asserted_equalities(both->rhs);
    return;
  }
  const auto* equal = condition->as<ir::Compare>();
  if (equal == nullptr || equal->op != ir::CompareOp::kEq) return;
  if (equal->lhs->type.kind != ir::TypeKind::kInt || equal->rhs->type.kind != ir::TypeKind::kInt) {
    return;
  }
  asserted_equal_.emplace_back(size_of(equal->lhs), size_of(equal->rhs));
}

bool ShapeFacts::equal_sizes(const SizeKey& a, const SizeKey& b) const {
  // The sizes reachable from `a` through asserted equalities (few: a kernel has a handful).
  std::vector<SizeKey> reached{a};
  for (size_t i = 0; i < reached.size(); ++i) {
    if (reached[i] == b) return true;
    for (const auto& [x, y] : asserted_equal_) {
      for (const auto& [from, to] : {std::pair{x, y}, std::pair{y, x}}) {
        if (from == reached[i] && std::find(reached.begin(), reached.end(), to) == reached.end()) {
          reached.push_back(to);
        }
      }
    }
  }
  return false;
}

void ShapeFacts::add_definitions(const ir::Block& host_block) {
  // Host code is the kernel body outside tile loops; device bindings never hold shapes.
  for (const ir::StmtPtr& stmt : host_block) {
    if (const auto* branch = stmt->as<ir::If>()) {
      add_definitions(branch->then_body);
      add_definitions(branch->else_body);
    } else if (const auto* let = stmt->as<ir::Let>()) {
      for (size_t i = 0; i < let->targets.size(); ++i) {
        definitions_[let->targets[i]] = stmt.get();
        target_index_[let->targets[i]] = static_cast<int>(i);
      }
    } else if (const auto* alloc = stmt->as<ir::Alloc>()) {
      definitions_[alloc->target] = stmt.get();
      target_index_[alloc->target] = 0;
    }
  }
}

const ir::Stmt* ShapeFacts::definition(int binding) const {
  auto it = definitions_.find(binding);
  return it == definitions_.end() ? nullptr : it->second;
}

int ShapeFacts::target_index(int binding) const {
  auto it = target_index_.find(binding);
  return it == target_index_.end() ? 0 : it->second;
}

int ShapeFacts::shape_root(int binding) const {
  const ir::Stmt* def = definition(binding);
  if (def == nullptr) return binding;
  if (const auto* alloc = def->as<ir::Alloc>()) {
    return shape_root_of(alloc->shape).value_or(binding);
  }
  const auto* let = def->as<ir::Let>();
  if (const auto* call = let->value->as<Call>()) {
    // Every result of broadcast_tensors has the one broadcast shape.
    if (call->op == Intrinsic::kBroadcastTensors && let->unpack) return let->targets.front();
    // `x[idx] = v` in host code rebinds x to an array of x's shape.
    if (call->op == Intrinsic::kHostIndexSet) {
      if (const auto* base = call->args[0]->as<ir::VarRef>()) return shape_root(base->binding);
    }
    if (call->op == Intrinsic::kReshape && !let->unpack) {
      // `x.reshape(y.shape)` has y's shape; `x.view(-1)` the flat shape of x's.
      if (auto root = shape_root_of(call->args[1])) return *root;
      if (const auto* base = call->args[0]->as<ir::VarRef>(); base && is_flat(call->args[1])) {
        auto [it, inserted] = flat_roots_.emplace(shape_root(base->binding), binding);
        return it->second;
      }
    }
  }
  if (const auto* ref = let->value->as<ir::VarRef>();
      ref && !let->unpack && ref->type.kind == ir::TypeKind::kTensor) {
    return shape_root(ref->binding);
  }
  return binding;
}

std::optional<int> ShapeFacts::shape_root_of(const ExprPtr& expr) const {
  if (const auto* call = expr->as<Call>()) {
    if (call->op == Intrinsic::kShapeOf && !call->args.empty()) {
      if (const auto* ref = call->args[0]->as<ir::VarRef>()) return shape_root(ref->binding);
    }
    return std::nullopt;
  }
  if (const auto* ref = expr->as<ir::VarRef>()) {
    const ir::Stmt* def = definition(ref->binding);
    const auto* let = def ? def->as<ir::Let>() : nullptr;
    if (let && !let->unpack) return shape_root_of(let->value);
  }
  return std::nullopt;
}

SizeKey ShapeFacts::axis_size(int binding, int axis) const {
  const int root = shape_root(binding);
  if (root != binding) return axis_size(root, axis);
  if (const ir::Stmt* def = definition(binding)) {
    if (const auto* alloc = def->as<ir::Alloc>()) {
      if (auto size = size_from_shape_expr(alloc->shape, axis)) return *size;
    }
  }
  SizeKey key;
  key.kind = SizeKey::Kind::kAxis;
  key.root = root;
  key.axis = axis;
  return key;
}

std::optional<SizeKey> ShapeFacts::size_from_shape_expr(const ExprPtr& shape, int axis) const {
  if (const auto* tuple = shape->as<ir::TupleExpr>()) {
    if (axis >= 0 && axis < static_cast<int>(tuple->elements.size())) {
      return size_of(tuple->elements[axis]);
    }
    return std::nullopt;
  }
  if (const auto* call = shape->as<Call>()) {
    if (call->op == Intrinsic::kShapeOf && !call->args.empty()) {
      if (const auto* ref = call->args[0]->as<ir::VarRef>()) return axis_size(ref->binding, axis);
    }
    return std::nullopt;
  }
  if (const auto* ref = shape->as<ir::VarRef>()) {
    const ir::Stmt* def = definition(ref->binding);
    const auto* let = def ? def->as<ir::Let>() : nullptr;
    if (let && !let->unpack) return size_from_shape_expr(let->value, axis);
  }
  return std::nullopt;
}

namespace {

SizeKey opaque(const void* what) {
  SizeKey key;
  key.kind = SizeKey::Kind::kOpaque;
  key.opaque = what;
  return key;
}

// A non-negative axis from a possibly negative one, when the rank is known.
std::optional<int> normalize_axis(int64_t axis, int rank) {
  if (axis >= 0) return static_cast<int>(axis);
  if (rank < 0 || axis < -rank) return std::nullopt;
  return static_cast<int>(axis + rank);
}

}  // namespace

bool ShapeFacts::is_flat(const ExprPtr& shape) {
  const auto* tuple = shape->as<ir::TupleExpr>();
  if (tuple == nullptr || tuple->elements.size() != 1) return false;
  const auto* imm = tuple->elements[0]->as<ir::IntImm>();
  return imm != nullptr && imm->value == -1;
}

SizeKey ShapeFacts::size_of(const ExprPtr& expr) const {
  if (const auto* imm = expr->as<ir::IntImm>()) {
    SizeKey key;
    key.kind = SizeKey::Kind::kConst;
    key.value = imm->value;
    return key;
  }
  if (const auto* ref = expr->as<ir::VarRef>()) {
    const ir::Stmt* def = definition(ref->binding);
    const auto* let = def ? def->as<ir::Let>() : nullptr;
    if (let == nullptr) return opaque(&kernel_.bindings[ref->binding]);
    if (!let->unpack) return size_of(let->value);
    if (auto size = size_from_shape_expr(let->value, target_index(ref->binding))) return *size;
    return opaque(&kernel_.bindings[ref->binding]);
  }
  if (const auto* call = expr->as<Call>()) {
    if (call->op == Intrinsic::kSize && call->args.size() == 2) {
      const auto* tensor = call->args[0]->as<ir::VarRef>();
      const auto* axis = call->args[1]->as<ir::IntImm>();
      if (tensor && axis) {
        const int rank = kernel_.bindings[tensor->binding].type.rank;
        if (auto a = normalize_axis(axis->value, rank)) return axis_size(tensor->binding, *a);
      }
    }
    return opaque(expr.get());
  }
  if (const auto* get = expr->as<ir::TupleGet>()) {
    int rank = get->tuple->type.rank;
    if (auto a = normalize_axis(get->index, rank)) {
      if (auto size = size_from_shape_expr(get->tuple, *a)) return *size;
    }
    return opaque(expr.get());
  }
  return opaque(expr.get());
}

}  // namespace helionc::passes
