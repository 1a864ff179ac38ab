#include "backend/pallas/host_state.h"

#include <fmt/format.h>

#include "backend/pallas/launch_names.h"

namespace helionc::backend::pallas {

PyExpr HostContext::var(const ir::VarRef& ref) {
  return py_atom(binding_name(kernel_, ref.binding));
}

PyExpr HostContext::load(const ir::Load& load) {
  diags_.error(DiagnosticKind::kInternal, load.range, "a load in host code");
  return py_atom("None");
}

PyExpr HostContext::tensor_query(ir::Intrinsic op, const ir::VarRef& tensor,
                                 const ir::ExprPtr& axis) {
  const std::string name = binding_name(kernel_, tensor.binding);
  switch (op) {
    case ir::Intrinsic::kDtypeOf:
      return py_atom(name + ".dtype");
    case ir::Intrinsic::kShapeOf:
      return py_atom(name + ".shape");
    case ir::Intrinsic::kNumel:
      return py_atom(name + ".size");
    case ir::Intrinsic::kNdim:
      return py_atom(name + ".ndim");
    default: {
      const auto* imm = axis ? axis->as<ir::IntImm>() : nullptr;
      return py_atom(fmt::format("{}.shape[{}]", name, imm ? imm->value : 0));
    }
  }
}

std::optional<PyExpr> HostContext::tunable(int index) {
  return py_atom(fmt::format("{}[{}]", config_name, py_string(kernel_.user_tunables[index].name)));
}

HostState::HostState(EmitContext& context, const ir::Kernel& kernel,
                     const passes::ShapeFacts& facts)
    : context(context),
      kernel(kernel),
      facts(facts),
      host_context_(kernel, context.diags),
      exprs_(kernel, host_context_, context.imports, context.diags) {
  std::map<std::string, int> name_count;
  for (const ir::Binding& binding : kernel.bindings) {
    scope_.reserve(safe_local_name(binding.name));
    ++name_count[binding.name];
  }
  for (const ir::ParamPack& pack : kernel.packs) scope_.reserve(safe_local_name(pack.name));
  // Sizes bound to a name exactly once (`m, n = x.size()`), so the name means one value.
  for (size_t i = 0; i < kernel.body.size(); ++i) {
    const auto* let = kernel.body[i]->as<ir::Let>();
    if (let == nullptr) continue;
    for (int target : let->targets) {
      const ir::Binding& binding = kernel.bindings[target];
      if (binding.type.kind != ir::TypeKind::kInt || name_count[binding.name] != 1) continue;
      if (binding.name.empty() || binding.name == "_") continue;  // a throwaway name
      const passes::SizeKey key =
          facts.size_of(ir::VarRef::make(target, binding.type, binding.range));
      if (key.kind == passes::SizeKey::Kind::kAxis) {
        size_names_.push_back({key, binding_name(kernel, target), i});
      }
    }
  }
  // `hl.register_tunable` values are read from the config the wrapper selects.
  if (!kernel.user_tunables.empty()) host_context_.config_name = local("config");
}

std::string HostState::local(const std::string& base) {
  auto it = locals_.find(base);
  if (it == locals_.end()) it = locals_.emplace(base, scope_.fresh(base)).first;
  return it->second;
}

std::string HostState::size_text(int binding, int axis, size_t before) const {
  const passes::SizeKey key = facts.axis_size(binding, axis);
  for (const SizeName& size : size_names_) {
    if (size.defined_at < before && size.key == key) return size.name;
  }
  return fmt::format("{}.shape[{}]", binding_name(kernel, binding), axis);
}

}  // namespace helionc::backend::pallas
