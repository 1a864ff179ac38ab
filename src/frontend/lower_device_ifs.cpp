// `if` on a value of the device code whose branches do more than assign names: stores, loops,
// nested `if`s, an `else` or `elif` (`if flag[0] > 0: x[tile] = ...`, `if pid == 0:` under
// `hl.grid`, `if e - s > 8: ... else: ...`). The condition is one bool known only when the
// kernel runs, so the branches become an ir::If with `on_device` set: the Pallas kernel runs
// each under `pl.when`, the reference runs both and selects the arrays they store. A branch
// is a function there, so it may not rebind a name of the code before the `if`, and the names
// it binds are not defined after it. (An `if` that only assigns names is lower_device_if's
// `jnp.where` form.)
#include <fmt/format.h>

#include "frontend/kernel_lowering.h"
#include "ir/visitor.h"

namespace helionc::frontend {

using ir::Binding;
using ir::TypeKind;

bool KernelLowering::assigns_only(const SyntaxNode& block) {
  for (const SyntaxNode& stmt : block.named_children()) {
    if (stmt.type() != "expression_statement") return false;
    const SyntaxNode inner = stmt.named_children().front();
    if (inner.type() != "assignment" && inner.type() != "augmented_assignment") return false;
    if (inner.child_by_field("left").type() == "subscript") return false;  // a store
  }
  return true;
}

bool KernelLowering::is_device_value(const ir::ExprPtr& expr) const {
  if (!expr) return false;
  bool device = false;
  ir::for_each_expr(ir::Block{ir::Return::make({expr}, expr->range)}, [&](const ir::Expr& e) {
    if (e.kind == ir::ExprKind::kTileAttr || e.kind == ir::ExprKind::kLoad) device = true;
    if (const auto* ref = e.as<ir::VarRef>()) {
      const Binding::Origin origin = kernel_.bindings[ref->binding].origin;
      if (origin == Binding::Origin::kLoopVar) device = true;
      if (origin == Binding::Origin::kDevice && !trace_time_values_.count(ref->binding)) {
        device = true;
      }
    }
  });
  return device;
}

bool KernelLowering::is_scalar_condition(const ir::ExprPtr& condition) {
  const ir::Type& type = condition->type;
  if (type.kind == TypeKind::kBool) return true;
  return type.kind == TypeKind::kTileTensor && !type.variadic && type.tile_rank() == 0 &&
         (!type.dtype || *type.dtype == ir::ScalarType::kBool);
}

ir::Block KernelLowering::lower_guarded_branch(const SyntaxNode& body, SourceRange if_range,
                                               std::set<std::string>& bound) {
  const auto before = scope_;
  ir::Block block = lower_block(body);
  for (const auto& [name, id] : scope_) {
    const auto old = before.find(name);
    if (old == before.end() || old->second == id) continue;
    if (poisoned_.count(id) || closed_.count(id)) continue;  // reported already
    diags_
        .error(DiagnosticKind::kDataDependentControl, binding(id).range,
               fmt::format("`{}` is rebound under an `if` on values computed in device code "
                           "whose branches store or loop; that is not supported yet: use a new "
                           "name, or compute the value before the `if` with `torch.where(cond, "
                           "a, b)`",
                           name))
        .note(if_range, "the `if` is here");
    failed_ = true;
  }
  for (const auto& [name, id] : scope_) {
    if (!before.count(name)) bound.insert(name);
  }
  scope_ = before;
  return block;
}

ir::StmtPtr KernelLowering::lower_guarded_if(ir::ExprPtr condition, const SyntaxNode& body,
                                             const std::vector<SyntaxNode>& alternatives,
                                             SourceRange range) {
  std::set<std::string> bound;
  ir::StmtPtr branches =
      lower_guarded_chain(std::move(condition), body, alternatives, 0, range, bound);
  // Names a branch bound are not defined after the `if`; a later use says why.
  for (const std::string& name : bound) {
    const int id = bind(name, ir::Type::none(), Binding::Origin::kHost, range);
    poisoned_[id] = fmt::format(
        "`{}` is bound under an `if` on values computed in device code whose branches store or "
        "loop, so it is not defined after the `if`; compute it before the `if`",
        name);
  }
  return branches;
}

ir::StmtPtr KernelLowering::lower_guarded_chain(ir::ExprPtr condition, const SyntaxNode& body,
                                                const std::vector<SyntaxNode>& alternatives,
                                                size_t next, SourceRange range,
                                                std::set<std::string>& bound) {
  ir::Block then_body = lower_guarded_branch(body, range, bound);
  ir::Block else_body;
  if (next < alternatives.size()) {
    const SyntaxNode& alternative = alternatives[next];
    if (alternative.type() == "elif_clause") {
      const SyntaxNode condition_node = alternative.child_by_field("condition");
      ir::ExprPtr inner = lower_expr(condition_node);
      if (is_device_value(inner) && !is_scalar_condition(inner)) {
        fail(DiagnosticKind::kDataDependentControl, condition_node.range(),
             "`elif` on a tile of values is not supported (each element has its own answer); "
             "use `torch.where(cond, a, b)`");
      }
      else_body.push_back(lower_guarded_chain(std::move(inner),
                                              alternative.child_by_field("consequence"),
                                              alternatives, next + 1, alternative.range(), bound));
    } else {
      else_body = lower_guarded_branch(alternative.child_by_field("body"), range, bound);
    }
  }
  const bool on_device = is_device_value(condition);
  return ir::If::make(std::move(condition), std::move(then_body), std::move(else_body), {}, range,
                      on_device);
}

}  // namespace helionc::frontend
