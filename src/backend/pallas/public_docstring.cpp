#include "backend/pallas/public_docstring.h"

#include <fmt/format.h>

#include "backend/pallas/launch_names.h"
#include "backend/pallas/pack_params.h"
#include "support/docstring.h"

namespace helionc::backend::pallas {

namespace {

// What a parameter takes, as far as the compiler knows it before the call.
std::string parameter_text(const ir::Kernel& kernel, const ir::Param& param) {
  if (param.pack >= 0) {
    const ir::ParamPack& pack = kernel.packs[static_cast<size_t>(param.pack)];
    return pack.kind == ir::ParamPack::Kind::kDict
               ? fmt::format("a dict of jax.Arrays with the keys {}", fmt::join(pack.keys, ", "))
               : fmt::format("a list or tuple of {}{} jax.Arrays", pack.exact ? "" : "at least ",
                             pack.elements.size());
  }
  const ir::Type& type = kernel.bindings[static_cast<size_t>(param.binding)].type;
  switch (type.kind) {
    case ir::TypeKind::kTensor: {
      std::string text = type.rank_known() ? fmt::format("jax.Array of rank {}", type.rank)
                                           : std::string("jax.Array of any rank");
      if (type.dtype) text += fmt::format(" ({})", ir::dtype_name(*type.dtype));
      if (type.optional) text += ", or None";
      return text;
    }
    case ir::TypeKind::kInt:
      return "int, static (a Python number while JAX traces)";
    case ir::TypeKind::kFloat:
      return "float, static (a Python number while JAX traces)";
    case ir::TypeKind::kBool:
      return "bool, static";
    case ir::TypeKind::kDtype:
      return "a dtype";
    case ir::TypeKind::kDevice:
      return "ignored (JAX places arrays itself)";
    default:
      return "as the kernel takes it";
  }
}

// The kernel's top-level `return` (the frontend appends the parameters it updates in place),
// or null when it returns nothing there.
const ir::Return* top_level_return(const ir::Kernel& kernel) {
  for (const ir::StmtPtr& stmt : kernel.body) {
    if (const auto* node = stmt->as<ir::Return>()) return node;
  }
  return nullptr;
}

// One returned value: its name where it is one, what it is, and the parameter whose shape it
// has (`out = torch.empty_like(x)`) or that it is (a parameter updated in place).
std::string returned_text(const ir::Kernel& kernel, const passes::ShapeFacts& facts,
                          const ir::ExprPtr& value, size_t index) {
  const auto* ref = value->as<ir::VarRef>();
  // A name where it is one, else the expression as the source spells it.
  std::string name = fmt::format("value {}", index);
  if (ref != nullptr) {
    name = kernel.bindings[static_cast<size_t>(ref->binding)].name;
  } else if (value->range.valid()) {
    name = fmt::format("`{}`", value->range.file->text_of(value->range));
  }
  const ir::Type& type = value->type;
  if (type.kind != ir::TypeKind::kTensor) return fmt::format("{}: as the kernel computes it", name);
  std::string text = type.rank_known() ? fmt::format("{}: jax.Array of rank {}", name, type.rank)
                                       : fmt::format("{}: jax.Array", name);
  if (type.dtype) text += fmt::format(" ({})", ir::dtype_name(*type.dtype));
  if (ref == nullptr) return text;
  const ir::Binding& binding = kernel.bindings[static_cast<size_t>(ref->binding)];
  if (binding.origin == ir::Binding::Origin::kParam) return text + ", the parameter updated";
  const int root = facts.shape_root(ref->binding);
  if (root != ref->binding &&
      kernel.bindings[static_cast<size_t>(root)].origin == ir::Binding::Origin::kParam) {
    text += fmt::format(", of the shape of `{}`", kernel.bindings[static_cast<size_t>(root)].name);
  }
  return text;
}

std::string config_text(const autotune::KernelConfig& config) {
  std::string text = fmt::format("block_sizes [{}]", fmt::join(config.block_sizes, ", "));
  if (!config.pallas_loop_type.empty()) {
    text += fmt::format(", {}", fmt::join(config.pallas_loop_type, ", "));
  }
  return text;
}

// `x=[4096, 4096], y=[4096]` in parameter order.
std::string shapes_text(const ir::Kernel& kernel, const autotune::ShapeEntry& entry) {
  std::vector<std::string> items;
  for (const ir::Param& param : kernel.params) {
    const std::string& name = ir::call_name(kernel, param);
    if (auto it = entry.shapes.find(name); it != entry.shapes.end()) {
      items.push_back(fmt::format("{}=[{}]", name, fmt::join(it->second, ", ")));
    }
  }
  return fmt::format("{}", fmt::join(items, ", "));
}

// One line of the docstring whose value is `text` (a text without line breaks of its own).
std::string escaped(std::string_view text) { return docstring_lines(text).front(); }

}  // namespace

std::vector<std::string> public_docstring(const EmitContext& context, const ir::Kernel& kernel,
                                          const passes::ShapeFacts& facts,
                                          const autotune::ConfigFile* config, bool differentiable) {
  std::vector<std::string> lines;
  const std::string where = context.where(kernel.name_range);
  const std::string target =
      config != nullptr && config->target ? *config->target : context.options.target;
  // Where the kernel comes from: its file and line (none for a kernel built in code).
  const std::string from = where.empty() ? "" : " from " + where;
  if (!kernel.doc.empty()) {
    lines = docstring_lines(kernel.doc);
    lines.emplace_back("");
    lines.push_back(escaped(fmt::format("Compiled by helionc{} for {}.", from, target)));
  } else {
    lines.push_back(
        escaped(fmt::format("The Helion kernel `{}`{}, compiled by helionc "
                            "for {}.",
                            kernel.name, from, target)));
  }
  lines.emplace_back("");
  lines.emplace_back("Args:");
  for (const ir::Param& param : kernel.params) {
    if (param.pack >= 0 && !ir::opens_pack(kernel, param)) continue;
    // As the signature spells it (a name the module's own would shadow is renamed there).
    const std::string name =
        *signature_name(kernel, param, [&](int binding) { return binding_name(kernel, binding); });
    lines.push_back(escaped(fmt::format("    {}: {}.", name, parameter_text(kernel, param))));
  }
  lines.emplace_back(
      "    interpret: None (the default) runs the kernels on a TPU and the interpreter");
  lines.emplace_back(
      "        elsewhere, as the platform JAX lowers for decides; True forces the interpreter,");
  lines.emplace_back("        \\\"tpu\\\" simulates a TPU.");
  lines.emplace_back("");
  if (const ir::Return* node = top_level_return(kernel); node && !node->values.empty()) {
    lines.emplace_back(node->tuple ? "Returns a tuple:" : "Returns:");
    for (size_t i = 0; i < node->values.size(); ++i) {
      lines.push_back(
          escaped(fmt::format("    {}.", returned_text(kernel, facts, node->values[i], i))));
    }
    lines.emplace_back("");
  }
  if (config != nullptr && !config->configs.empty()) {
    lines.push_back(fmt::format("Configs: {} tuned entr{} for {}, chosen by the call's shapes,",
                                config->configs.size(), config->configs.size() == 1 ? "y" : "ies",
                                escaped(target)));
    lines.emplace_back("and the default for other shapes:");
    for (const autotune::ShapeEntry& entry : config->configs) {
      lines.push_back(escaped(
          fmt::format("    {}: {}", shapes_text(kernel, entry), config_text(entry.config))));
    }
  } else {
    lines.emplace_back("Configs: the default for every call (no tuned entries).");
  }
  lines.emplace_back("");
  lines.push_back(
      escaped(fmt::format("`reference_{}` in this module computes the same in "
                          "plain jnp:",
                          kernel.name)));
  lines.emplace_back("compare the two on your inputs.");
  if (differentiable) {
    lines.emplace_back("");
    lines.emplace_back(
        "`jax.grad` and `jax.vjp` differentiate it: a jax.custom_vjp whose backward pass is");
    lines.push_back(escaped(fmt::format(
        "jax.vjp of `reference_{}`, recomputed from the inputs (`jax.jvp` is not defined).",
        kernel.name)));
  }
  lines.front() = "\"\"\"" + lines.front();
  lines.emplace_back("\"\"\"");
  return lines;
}

}  // namespace helionc::backend::pallas
