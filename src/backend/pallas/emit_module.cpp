#include "backend/pallas/emit_module.h"

#include "autotune/resolve_config.h"
#include "autotune/targets.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "backend/pallas/config_table.h"
#include "backend/pallas/emit_context.h"
#include "backend/pallas/helper_calls.h"
#include "backend/pallas/host_printer.h"
#include "backend/pallas/kernel_printer.h"
#include "backend/pallas/launch_names.h"
#include "backend/pallas/names.h"
#include "backend/pallas/py_expr.h"
#include "passes/shape_facts.h"
#include "passes/vmem_fallback.h"
#include "support/python_names.h"
#include "support/python_wrap.h"
#include "support/python_writer.h"
#include "support/quote.h"

namespace helionc::backend::pallas {

const std::vector<std::pair<std::string, std::string>>& tpu_targets() {
  static const std::vector<std::pair<std::string, std::string>> k_targets = [] {
    std::vector<std::pair<std::string, std::string>> targets;
    for (const autotune::TargetInfo& target : autotune::builtin_targets()) {
      targets.emplace_back(target.name, target.device_kind);
    }
    return targets;
  }();
  return k_targets;
}

namespace {

// A kernel's name is public (callers import it), so it is never renamed: a name that would
// replace one the module defines or calls, or whose per-kernel names another kernel's share
// (`add` and `ADD` both need `_ADD_CONFIGS`), is an error.
// Whether `name` is one the module defines for kernel `other`: its config tables, its kernel
// functions (`_add_kernel`, `_add_kernel_1`, ...) and its reference (`reference_add`).
bool is_name_of_kernel(const std::string& name, const ir::Kernel& other) {
  if (name == config_table_name(other) || name == config_default_name(other)) return true;
  if (name == reference_function_name(other.name)) return true;
  const std::string stem = "_" + other.name + "_kernel";
  return name == stem || name.starts_with(stem + "_");
}

bool check_kernel_names(const ir::Module& module, DiagnosticEngine& diags) {
  bool ok = true;
  std::map<std::string, const ir::Kernel*> by_table;
  for (const ir::Kernel& kernel : module.kernels) {
    // Per-kernel names are reserved only for the kernels this module has: a kernel named
    // `_matmul_kernel` is fine unless the file also defines `matmul`.
    bool per_kernel = false;
    for (const ir::Kernel& other : module.kernels)
      per_kernel |= is_name_of_kernel(kernel.name, other);
    if (template_module_names().count(kernel.name) > 0 || is_python_builtin(kernel.name) ||
        per_kernel) {
      diags.error(DiagnosticKind::kReservedName, kernel.name_range,
                  fmt::format("a kernel named `{}` would replace a name the generated module "
                              "defines or calls; rename the kernel",
                              kernel.name));
      ok = false;
      continue;
    }
    auto [other, inserted] = by_table.emplace(config_table_name(kernel), &kernel);
    if (!inserted) {
      diags
          .error(DiagnosticKind::kReservedName, kernel.name_range,
                 fmt::format("kernels `{}` and `{}` would share the module names `{}` and `{}`; "
                             "rename one",
                             other->second->name, kernel.name, config_table_name(kernel),
                             config_default_name(kernel)))
          .note(other->second->name_range, "the other kernel is here");
      ok = false;
    }
  }
  return ok;
}

// The variants the launch's variants fall back to when they do not fit in VMEM, added after the
// configs' own (a fallback of a fallback is not looked for: vmem_fallback leaves no `unroll`).
void add_vmem_fallbacks(const passes::Launch& launch, LaunchNames& names) {
  const size_t used = names.variants.size();
  names.fallbacks.assign(used, -1);
  for (size_t v = 0; v < used; ++v) {
    std::optional<LoopTypes> fallback = passes::vmem_fallback(launch, names.variants[v]);
    if (!fallback) continue;
    auto found = std::find(names.variants.begin(), names.variants.end(), *fallback);
    if (found == names.variants.end()) {
      names.variants.push_back(*fallback);
      names.fallbacks.push_back(-1);
      found = names.variants.end() - 1;
    }
    names.fallbacks[v] = static_cast<int>(found - names.variants.begin());
  }
}

// Prints everything a kernel contributes: config tables, kernel functions, public function.
bool print_kernel(PythonWriter& out, EmitContext& context, const ir::Kernel& kernel,
                  const passes::KernelPlan& plan, const autotune::ConfigFile* config) {
  bool ok = true;
  KernelLoopTypes loop_types(kernel, plan);
  if (kernel_reads_config(kernel, plan)) {
    ok &= print_config_tables(out, kernel, config, loop_types, context.diags);
    out.blank();
    out.blank();
  }
  if (!ok) return false;
  const passes::ShapeFacts facts(kernel);
  std::vector<LaunchNames> names;
  for (const passes::Launch& launch : plan.launches) {
    std::string function = plan.launches.size() == 1
                               ? fmt::format("_{}_kernel", kernel.name)
                               : fmt::format("_{}_kernel_{}", kernel.name, launch.index);
    names.push_back(name_launch(kernel, launch, function));
    LaunchNames& launch_names = names.back();
    launch_names.variants = loop_types.variants(launch.index);
    add_vmem_fallbacks(launch, launch_names);
    launch_names.first_loop = loop_types.first_loop(launch.index);
    if (passes::orders_grid(launch)) {
      // Revisited dimensions reorder the grid even without `loop_orders`.
      const std::vector<int64_t> order = passes::default_grid_order(launch);
      if (loop_types.loop_orders_given || !std::is_sorted(order.begin(), order.end())) {
        launch_names.loop_order = "grid_order";
        launch_names.loop_order_entry = passes::loop_order_entry(plan, launch.index);
      }
    }
    for (const LoopTypes& variant : launch_names.variants) {
      std::string name = function;
      if (launch_names.variants.size() > 1) {
        for (passes::LoopStrategy type : variant) {
          name += fmt::format("_{}", passes::loop_strategy_name(type));
        }
      }
      launch_names.variant_functions.push_back(name);
    }
    for (size_t v = 0; v < launch_names.variants.size(); ++v) {
      ok &= print_kernel_function(out, context, kernel, facts, launch, launch_names, v);
      out.blank();
      out.blank();
    }
  }
  ok &= print_public_function(out, context, kernel, plan, facts, names, config);
  return ok;
}

}  // namespace

std::optional<std::string> emit_module(const ir::Module& module,
                                       const std::vector<passes::KernelPlan>& plans,
                                       const EmitOptions& options, DiagnosticEngine& diags) {
  bool known_target = false;
  std::vector<std::string> target_names;
  for (const auto& [name, kind] : tpu_targets()) {
    known_target |= name == options.target;
    target_names.push_back(name);
  }
  if (!known_target) {
    diags.error(DiagnosticKind::kUnsupported, {},
                fmt::format("unknown target `{}`; expected one of {}", options.target,
                            fmt::join(target_names, ", ")));
    return std::nullopt;
  }

  // Configs are checked before anything is printed (the driver has checked them already for
  // every --emit; a caller of emit_module alone gets the same errors).
  if (!autotune::check_module_configs(module, plans, options.configs, diags)) return std::nullopt;
  if (!check_kernel_names(module, diags)) return std::nullopt;

  EmitContext context{options, diags, {}};
  PythonWriter kernels;
  PythonWriter config_comments;
  bool ok = true;
  for (const passes::KernelPlan& plan : plans) {
    const ir::Kernel& kernel = module.kernels[plan.kernel];
    const size_t k = static_cast<size_t>(plan.kernel);
    const autotune::ConfigFile* config =
        k < options.configs.size() && options.configs[k] ? &*options.configs[k] : nullptr;
    config_comments.comment(
        fmt::format("Config of {}: {}.", kernel.name, describe_config(config, kernel)));
    ok &= print_kernel(kernels, context, kernel, plan, config);
    kernels.blank();
    kernels.blank();
  }
  if (!ok) return std::nullopt;

  const TemplateSet embedded = options.templates ? TemplateSet() : TemplateSet::embedded();
  const TemplateSet& templates = options.templates ? *options.templates : embedded;
  auto prelude = templates.get("prelude.py.tmpl");
  if (!prelude) {
    diags.error(DiagnosticKind::kInputFile, {}, prelude.error());
    return std::nullopt;
  }
  // Helpers in a fixed order (expm1 before sinh, which uses it), after the prelude, with the
  // helpers they call.
  auto needed = with_called_helpers(templates, context.imports.helpers);
  if (!needed) {
    diags.error(DiagnosticKind::kInputFile, {}, needed.error());
    return std::nullopt;
  }
  std::string helpers;
  for (const std::string& helper : *needed) {
    auto text = templates.get(fmt::format("helper_{}.py.tmpl", helper));
    helpers += "\n\n" + std::string(*text);  // two blank lines before each
  }
  // The module's table of JAX device kinds, from configs/targets/*.yaml like everything else
  // about a target.
  std::string device_kinds;
  for (const auto& [name, kind] : tpu_targets()) {
    device_kinds += fmt::format("{}: {},\n", py_string(name), py_string(kind));
  }
  std::string device_vmem;
  for (const autotune::TargetInfo& target : autotune::builtin_targets()) {
    device_vmem += fmt::format("{}: ({}, {}),\n", py_string(target.device_kind), target.vmem_bytes,
                               target.default_scoped_vmem_bytes);
  }
  TemplateValues values = {
      {"device_kinds", device_kinds},
      {"device_vmem", device_vmem},
      {"helpers", helpers},
      {"version", options.helionc_version},
      {"source", one_line_text(options.source_path)},  // in the header comment
      {"sha256", options.source_sha256},
      {"target", options.target},
      {"config_comments", config_comments.str()},
      {"imports",
       module_imports(context.imports.functools, context.imports.math || options.references_math,
                      context.imports.numpy || options.references_numpy)},
      {"prelude", std::string(*prelude)},
      {"kernels", kernels.str()},
      {"references", options.references},
  };
  auto text = templates.expand("module.py.tmpl", values);
  if (!text) {
    diags.error(DiagnosticKind::kInputFile, {}, text.error());
    return std::nullopt;
  }
  // Lines of at most 100 characters, broken as a person would break them.
  if (options.line_width == 0) return std::move(*text);
  return wrap_python_lines(*text, options.line_width);
}

}  // namespace helionc::backend::pallas
