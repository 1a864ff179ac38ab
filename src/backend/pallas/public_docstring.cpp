#include "backend/pallas/public_docstring.h"

#include <fmt/format.h>

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
    const std::string name = param.pack >= 0
                                 ? kernel.packs[static_cast<size_t>(param.pack)].name
                                 : kernel.bindings[static_cast<size_t>(param.binding)].name;
    lines.push_back(escaped(fmt::format("    {}: {}.", name, parameter_text(kernel, param))));
  }
  lines.emplace_back(
      "    interpret: None (the default) compiles for the TPU when JAX traces for one (its");
  lines.emplace_back(
      "        default backend, or tpu_lowering_context()) and interprets otherwise; True");
  lines.emplace_back("        forces the interpreter, \\\"tpu\\\" simulates a TPU.");
  lines.emplace_back("");
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
