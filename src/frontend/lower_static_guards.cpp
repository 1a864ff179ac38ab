// Names bound on one branch of an `if` on a static value.
//
// `if compute_bias_grad: grad_b_acc = ...` with `compute_bias_grad: hl.constexpr`: Helion
// compiles only the branch the value takes, so a kernel may bind a name on one branch and read
// it later under the same condition (`if compute_bias_grad: grad_b_acc += ...`). The module
// keeps both branches as Python `if`s that JAX resolves while it traces, so such a name stays
// in scope after the `if`, guarded by the condition: a read under an `if` on the same condition
// (the same way round) is fine, any other read is the error it always was. In device code a
// tile value of known dtype gets zeros of its type on the other branch, so the loops that
// carry it (the `grid` and `emit_pipeline` strategies keep carried values in VMEM scratch)
// always have a value; the guard keeps the zeros from being read.
#include <fmt/format.h>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::ExprPtr;
using ir::Type;
using ir::TypeKind;

namespace {

// Whether two static conditions are the same expression of the same bindings.
bool same_condition(const ExprPtr& a, const ExprPtr& b) {
  if (a->kind != b->kind) return false;
  if (const auto* x = a->as<ir::VarRef>()) return x->binding == b->as<ir::VarRef>()->binding;
  if (const auto* x = a->as<ir::IntImm>()) return x->value == b->as<ir::IntImm>()->value;
  if (const auto* x = a->as<ir::BoolImm>()) return x->value == b->as<ir::BoolImm>()->value;
  if (const auto* x = a->as<ir::FloatImm>()) return x->value == b->as<ir::FloatImm>()->value;
  if (const auto* x = a->as<ir::StringImm>())
    return x->spelling == b->as<ir::StringImm>()->spelling;
  if (const auto* x = a->as<ir::DtypeImm>()) return x->dtype == b->as<ir::DtypeImm>()->dtype;
  if (a->as<ir::NoneImm>()) return true;
  if (const auto* x = a->as<ir::Unary>()) {
    const auto* y = b->as<ir::Unary>();
    return x->op == y->op && same_condition(x->operand, y->operand);
  }
  if (const auto* x = a->as<ir::Binary>()) {
    const auto* y = b->as<ir::Binary>();
    return x->op == y->op && same_condition(x->lhs, y->lhs) && same_condition(x->rhs, y->rhs);
  }
  if (const auto* x = a->as<ir::Compare>()) {
    const auto* y = b->as<ir::Compare>();
    return x->op == y->op && same_condition(x->lhs, y->lhs) && same_condition(x->rhs, y->rhs);
  }
  if (const auto* x = a->as<ir::Call>()) {
    const auto* y = b->as<ir::Call>();
    if (x->op != y->op || x->args.size() != y->args.size()) return false;
    for (size_t i = 0; i < x->args.size(); ++i) {
      if (!same_condition(x->args[i], y->args[i])) return false;
    }
    return true;
  }
  return false;
}

}  // namespace

std::optional<ir::If::Merge> KernelLowering::keep_one_branch_name(const std::string& name,
                                                                  int defined, bool in_then,
                                                                  const StaticBranches& branches,
                                                                  SourceRange range) {
  const StaticGuard guard{branches.condition, in_then};
  const Type type = binding(defined).type;  // a copy: bind() grows kernel_.bindings
  const bool zeros = binding(defined).origin == ir::Binding::Origin::kDevice &&
                     type.kind == TypeKind::kTileTensor && type.dtype && !type.variadic &&
                     !closed_.count(defined) && !poisoned_.count(defined);
  if (!zeros) {
    scope_[name] = defined;
    guarded_[defined] = guard;
    one_branch_.insert(defined);
    return std::nullopt;
  }
  const int other = bind(name, type, ir::Binding::Origin::kDevice, range);
  ir::Block& missing = in_then ? *branches.else_body : *branches.then_body;
  missing.push_back(ir::Let::make(
      other,
      ir::Call::make(ir::Intrinsic::kFull,
                     {ir::IntImm::make(0, range), ir::DtypeImm::make(*type.dtype, range)}, type,
                     range),
      range));
  const int result = bind(name, type, ir::Binding::Origin::kDevice, range);
  guarded_[result] = guard;
  return in_then ? ir::If::Merge{result, defined, other} : ir::If::Merge{result, other, defined};
}

void KernelLowering::check_static_guard(int id, SourceRange use) {
  const auto guarded = guarded_.find(id);
  if (guarded == guarded_.end()) return;
  // `not c` taken the other way round is `c`.
  const auto plain = [](StaticGuard guard) {
    while (const auto* negated = guard.condition->as<ir::Unary>()) {
      if (negated->op != ir::UnaryOp::kNot) break;
      guard = {negated->operand, !guard.holds};
    }
    return guard;
  };
  const StaticGuard needed = plain(guarded->second);
  for (const StaticGuard& around : static_guards_) {
    const StaticGuard held = plain(around);
    if (held.holds == needed.holds && same_condition(held.condition, needed.condition)) return;
  }
  const ir::Binding& name = binding(id);
  diags_
      .error(DiagnosticKind::kUndefinedName, use,
             fmt::format("`{}` is defined on only one branch of an `if` above, and this use is "
                         "not under an `if` on the same condition",
                         name.name))
      .note(needed.condition->range, fmt::format("`{}` is defined only when this is {}", name.name,
                                                 needed.holds ? "true" : "false"));
  failed_ = true;
  throw LoweringAbort{};
}

void KernelLowering::inherit_guard(int result, std::initializer_list<int> sources) {
  for (int source : sources) {
    if (const auto guard = guarded_.find(source); guard != guarded_.end()) {
      guarded_[result] = guard->second;
      return;
    }
  }
}

}  // namespace helionc::frontend
