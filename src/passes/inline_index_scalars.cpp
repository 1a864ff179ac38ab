#include "passes/inline_index_scalars.h"

#include <map>

#include "ir/mutator.h"
#include "ir/visitor.h"

namespace helionc::passes {

namespace {

using ir::ExprPtr;

// The device names bound by exactly one plain assignment (`name = value`), with that value.
class SingleLets final : public ir::Visitor {
 public:
  explicit SingleLets(const ir::Kernel& kernel) : kernel_(kernel) {}

  std::map<int, ExprPtr> definitions() const {
    std::map<int, ExprPtr> result;
    for (const auto& [binding, value] : values_) {
      if (count_.at(binding) == 1 && value) result[binding] = value;
    }
    return result;
  }

 protected:
  void visit_node(const ir::Let& node) override {
    for (int target : node.targets) {
      if (kernel_.bindings[target].origin != ir::Binding::Origin::kDevice) continue;
      ++count_[target];
      values_[target] = node.unpack ? nullptr : node.value;
    }
    Visitor::visit_node(node);
  }

 private:
  const ir::Kernel& kernel_;
  std::map<int, int> count_;
  std::map<int, ExprPtr> values_;
};

// Rewrites the scalar indices of loads and stores, replacing each device name that stands for
// index arithmetic by that arithmetic (transitively).
class InlineIndexScalars final : public ir::Mutator {
 public:
  InlineIndexScalars(const ir::Kernel& kernel, std::map<int, ExprPtr> definitions)
      : kernel_(kernel), definitions_(std::move(definitions)) {}

 protected:
  ExprPtr mutate_node(const ir::Load& node, const ExprPtr& self) override {
    ExprPtr inner = Mutator::mutate_node(node, self);  // loads in gathered indices
    const auto& load = *inner->as<ir::Load>();
    bool changed = false;
    ir::Index index = inline_scalars(load.index, &changed);
    if (!changed) return inner;
    return ir::Load::make(load.tensor, std::move(index), load.type, load.range);
  }

  ir::StmtPtr mutate_node(const ir::Store& node, const ir::StmtPtr& self) override {
    ir::StmtPtr inner = Mutator::mutate_node(node, self);
    const auto& store = *inner->as<ir::Store>();
    bool changed = false;
    ir::Index index = inline_scalars(store.index, &changed);
    if (!changed) return inner;
    return ir::Store::make(store.tensor, std::move(index), store.value, store.range,
                           store.accumulate);
  }

 private:
  ir::Index inline_scalars(const ir::Index& index, bool* changed) {
    ir::Index result = index;
    for (ir::IndexItem& item : result) {
      if (item.kind != ir::IndexItem::Kind::kScalar) continue;
      ExprPtr scalar = inline_expr(item.scalar);
      if (scalar == item.scalar) continue;
      item.scalar = std::move(scalar);
      *changed = true;
    }
    return result;
  }

  // `expr` with its inlinable names replaced; itself when there is none.
  ExprPtr inline_expr(const ExprPtr& expr) {
    if (const auto* ref = expr->as<ir::VarRef>()) {
      const ExprPtr* definition = inlinable(ref->binding);
      return definition ? *definition : expr;
    }
    if (const auto* unary = expr->as<ir::Unary>()) {
      ExprPtr operand = inline_expr(unary->operand);
      if (operand == unary->operand) return expr;
      return ir::Unary::make(unary->op, std::move(operand), unary->type, unary->range);
    }
    if (const auto* binary = expr->as<ir::Binary>()) {
      ExprPtr lhs = inline_expr(binary->lhs);
      ExprPtr rhs = inline_expr(binary->rhs);
      if (lhs == binary->lhs && rhs == binary->rhs) return expr;
      return ir::Binary::make(binary->op, std::move(lhs), std::move(rhs), binary->type,
                              binary->range);
    }
    if (const auto* call = expr->as<ir::Call>(); call && is_min_max(*call)) {
      std::vector<ExprPtr> args;
      bool changed = false;
      for (const ExprPtr& arg : call->args) {
        args.push_back(inline_expr(arg));
        changed = changed || args.back() != arg;
      }
      if (!changed) return expr;
      return ir::Call::make(call->op, std::move(args), call->type, call->range);
    }
    return expr;
  }

  static bool is_min_max(const ir::Call& call) {
    return call.op == ir::Intrinsic::kMinimum || call.op == ir::Intrinsic::kMaximum;
  }

  // The definition of `binding`, with its own names inlined, when it is integer arithmetic on
  // tile attributes, loop variables, host values and such names; null otherwise.
  const ExprPtr* inlinable(int binding) {
    if (auto done = resolved_.find(binding); done != resolved_.end()) {
      return done->second ? &done->second : nullptr;
    }
    resolved_[binding] = nullptr;  // also what a cycle (impossible in SSA) would see
    const auto definition = definitions_.find(binding);
    if (definition == definitions_.end() || !is_index_arithmetic(definition->second)) {
      return nullptr;
    }
    resolved_[binding] = inline_expr(definition->second);
    return &resolved_[binding];
  }

  // Integer arithmetic whose leaves are numbers, scalar tile attributes, names that are not
  // device values (loop variables, host values) and device names that are such arithmetic.
  bool is_index_arithmetic(const ExprPtr& expr) {
    if (expr->type.kind != ir::TypeKind::kInt) return false;
    switch (expr->kind) {
      case ir::ExprKind::kIntImm:
        return true;
      case ir::ExprKind::kTileAttr:
        return expr->as<ir::TileAttr>()->attr != ir::TileAttrKind::kIndex;
      case ir::ExprKind::kVarRef: {
        const int binding = expr->as<ir::VarRef>()->binding;
        if (kernel_.bindings[binding].origin != ir::Binding::Origin::kDevice) return true;
        return inlinable(binding) != nullptr;
      }
      case ir::ExprKind::kUnary:
        return is_index_arithmetic(expr->as<ir::Unary>()->operand);
      case ir::ExprKind::kBinary: {
        const auto& binary = *expr->as<ir::Binary>();
        return is_index_arithmetic(binary.lhs) && is_index_arithmetic(binary.rhs);
      }
      case ir::ExprKind::kCall: {
        const auto& call = *expr->as<ir::Call>();
        if (!is_min_max(call)) return false;
        for (const ExprPtr& arg : call.args) {
          if (!is_index_arithmetic(arg)) return false;
        }
        return true;
      }
      default:
        return false;
    }
  }

  const ir::Kernel& kernel_;
  const std::map<int, ExprPtr> definitions_;
  std::map<int, ExprPtr> resolved_;  // binding -> inlined definition, or null
};

}  // namespace

bool inline_index_scalars(ir::Module& module, DiagnosticEngine&) {
  for (ir::Kernel& kernel : module.kernels) {
    SingleLets lets(kernel);
    lets.visit(kernel.body);
    kernel.body = InlineIndexScalars(kernel, lets.definitions()).mutate(kernel.body);
  }
  return true;
}

}  // namespace helionc::passes
