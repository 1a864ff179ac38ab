// `x[idx] = value` in host code (outside the tile loops): `scattered[idx] = out` after a launch,
// `grad[:, -1, :] = 0` on a launch's output.
//
// PyTorch writes into the tensor; JAX arrays are immutable, so the store is `x.at[idx].set(v)`
// (Intrinsic::kHostIndexSet) and x's name is rebound to the result, the way a launch rebinds
// the arrays it writes. Everything that reads x afterwards (launches, host code, returns) reads
// the new binding. The rebinding stands for the same tensor: a parameter stored into is an
// updated parameter (README "Kernels that update their parameters"), and a store into a view
// (`flat = x.view(-1); flat[0] = 1`) is written back into the viewed tensor, as a launch's
// stores are. What one rebinding cannot express is refused: a store into a copy that PyTorch
// would have made a view (`x[:2][0] = 1` through a name), into a tensor another live name also
// holds (`y = x`), or into a tensor with a view still in use (the view would keep old values).
#include <fmt/format.h>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::ExprPtr;
using ir::Type;
using ir::TypeKind;

void KernelLowering::lower_host_store(const SyntaxNode& target, ExprPtr value, SourceRange range,
                                      ir::Block& out) {
  const SyntaxNode base = target.child_by_field("value");
  if (base.type() != "identifier") {
    unsupported(base.range(), "storing through this expression in host code");
  }
  ExprPtr tensor = lower_identifier(base);
  const auto* var = tensor->as<ir::VarRef>();
  if (!var || binding(var->binding).type.kind != TypeKind::kTensor) {
    fail(DiagnosticKind::kTypeMismatch, base.range(),
         fmt::format("`{}` is not a tensor and cannot be stored to", base.text()));
  }
  const int old = var->binding;
  const std::string name(base.text());
  if (host_indexed_.count(old)) {
    // PyTorch's `x[:2, :4]` is a view a store would write through; jnp's is a copy.
    unsupported(base.range(),
                fmt::format("storing into `{}`, a part of a tensor indexed in host code (store "
                            "into the tensor itself)",
                            name));
  }
  const auto live = [&](int other) {
    const auto current = scope_.find(binding(other).name);
    return current != scope_.end() && current->second == other;
  };
  const auto [shared, shared_end] = shared_arrays_.equal_range(old);
  for (auto it = shared; it != shared_end; ++it) {
    if (!live(it->second)) continue;
    fail(DiagnosticKind::kUnsupported, base.range(),
         fmt::format("writing in host code into `{}`, a tensor `{}` also names (`y = x`), is "
                     "not supported yet: JAX arrays are values, so the store would rebind one "
                     "name only; store through a single name",
                     name, binding(it->second).name));
  }
  for (const auto& [view, viewed] : views_) {
    if (viewed.first != old || !live(view)) continue;
    fail(DiagnosticKind::kUnsupported, base.range(),
         fmt::format("writing in host code into `{}` while its view `{}` is in use is not "
                     "supported yet: JAX arrays are values, so the view would keep the old "
                     "contents; store through the view, or take the view after the store",
                     name, binding(view).name));
  }
  if (value->type.kind != TypeKind::kTensor && !value->type.is_scalar()) {
    fail(DiagnosticKind::kTypeMismatch, value->range,
         fmt::format("cannot store a value of type `{}` into a tensor",
                     ir::type_to_string(value->type)));
  }
  // The index as a host read of it would be (kHostIndex's items and checks).
  const ExprPtr indexed = lower_host_index(tensor, target);
  const auto& items = indexed->as<ir::Call>()->args;
  if (value->type.kind == TypeKind::kTensor && value->type.rank_known() &&
      indexed->type.rank_known() && value->type.rank > indexed->type.rank) {
    fail(DiagnosticKind::kShapeMismatch, range,
         fmt::format("cannot store a tensor of {} dimensions into `{}`, which has {} there",
                     value->type.rank, target.text(), indexed->type.rank));
  }
  std::vector<ExprPtr> args = {tensor, std::move(value)};
  args.insert(args.end(), items.begin() + 1, items.end());
  const Type type = binding(old).type;
  ExprPtr updated = ir::Call::make(ir::Intrinsic::kHostIndexSet, std::move(args), type, range);
  const int rebound = bind(name, type, ir::Binding::Origin::kHost, range);
  out.push_back(ir::Let::make(rebound, std::move(updated), range));
  note_param_write(old, rebound);
  if (const auto view = views_.find(old); view != views_.end()) {
    views_[rebound] = view->second;
    write_back_view(rebound, out);
  }
}

}  // namespace helionc::frontend
