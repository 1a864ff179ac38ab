#include "passes/unswitch_tensor_ifs.h"

#include "ir/mutator.h"
#include "ir/visitor.h"

namespace helionc::passes {

namespace {

using ir::ExprPtr;
using ir::StmtPtr;

bool is_query(ir::Intrinsic op) {
  return op == ir::Intrinsic::kSize || op == ir::Intrinsic::kShapeOf ||
         op == ir::Intrinsic::kNumel || op == ir::Intrinsic::kNdim ||
         op == ir::Intrinsic::kDtypeOf || op == ir::Intrinsic::kStride;
}

// Whether a condition uses a tensor argument as a value (not just its sizes or dtype).
bool looks_at_tensor(const ExprPtr& expr) {
  if (!expr) return false;
  if (const auto* ref = expr->as<ir::VarRef>()) return ref->type.kind == ir::TypeKind::kTensor;
  if (const auto* call = expr->as<ir::Call>()) {
    if (is_query(call->op)) return false;
    for (const ExprPtr& arg : call->args) {
      if (looks_at_tensor(arg)) return true;
    }
    return false;
  }
  if (const auto* cmp = expr->as<ir::Compare>()) {
    return looks_at_tensor(cmp->lhs) || looks_at_tensor(cmp->rhs);
  }
  if (const auto* bin = expr->as<ir::Binary>()) {
    return looks_at_tensor(bin->lhs) || looks_at_tensor(bin->rhs);
  }
  if (const auto* un = expr->as<ir::Unary>()) return looks_at_tensor(un->operand);
  return false;
}

// The first `if` of a loop body (at any depth, inner loops included) that must leave the
// kernel.
const ir::If* find_tensor_if(const ir::Block& block) {
  for (const StmtPtr& stmt : block) {
    if (const auto* inner_loop = stmt->as<ir::TileLoop>()) {
      if (const ir::If* inner = find_tensor_if(inner_loop->body)) return inner;
      continue;
    }
    if (const auto* static_loop = stmt->as<ir::StaticLoop>()) {
      if (const ir::If* inner = find_tensor_if(static_loop->body)) return inner;
      continue;
    }
    const auto* branch = stmt->as<ir::If>();
    if (branch == nullptr) continue;
    if (!branch->on_device && !branch->condition->as<ir::BoolImm>() &&
        looks_at_tensor(branch->condition)) {
      return branch;
    }
    if (const ir::If* inner = find_tensor_if(branch->then_body)) return inner;
    if (const ir::If* inner = find_tensor_if(branch->else_body)) return inner;
  }
  return nullptr;
}

// Copies a loop with one `if`'s condition fixed.
class FixCondition final : public ir::Mutator {
 public:
  FixCondition(const ir::If* target, bool value) : target_(target), value_(value) {}

 protected:
  StmtPtr mutate_node(const ir::If& node, const StmtPtr& self) override {
    if (&node != target_) return Mutator::mutate_node(node, self);
    return ir::If::make(ir::BoolImm::make(value_, node.condition->range), node.then_body,
                        node.else_body, node.merges, node.range);
  }

 private:
  const ir::If* target_;
  bool value_;
};

ir::Block unswitch_block(const ir::Block& block);

StmtPtr unswitch_loop(const StmtPtr& stmt) {
  const auto& loop = *stmt->as<ir::TileLoop>();
  const ir::If* branch = find_tensor_if(loop.body);
  if (branch == nullptr) return stmt;
  StmtPtr then_loop = FixCondition(branch, true).mutate(stmt);
  StmtPtr else_loop = FixCondition(branch, false).mutate(stmt);
  // Each copy may hold further such `if`s.
  return ir::If::make(branch->condition, {unswitch_loop(then_loop)}, {unswitch_loop(else_loop)}, {},
                      branch->range);
}

ir::Block unswitch_block(const ir::Block& block) {
  ir::Block result;
  for (const StmtPtr& stmt : block) {
    if (stmt->kind == ir::StmtKind::kTileLoop) {
      result.push_back(unswitch_loop(stmt));
    } else if (const auto* branch = stmt->as<ir::If>()) {
      result.push_back(ir::If::make(branch->condition, unswitch_block(branch->then_body),
                                    unswitch_block(branch->else_body), branch->merges,
                                    branch->range, branch->on_device));
    } else {
      result.push_back(stmt);
    }
  }
  return result;
}

}  // namespace

bool unswitch_tensor_ifs(ir::Module& module, DiagnosticEngine& diags) {
  for (ir::Kernel& kernel : module.kernels) kernel.body = unswitch_block(kernel.body);
  return true;
}

}  // namespace helionc::passes
