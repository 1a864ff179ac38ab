// The Pallas backend's entry point: the planned kernels of one source file in, the text of the
// generated Python module out (product.md §2). The module is assembled from
// templates/module.py.tmpl and templates/prelude.py.tmpl; kernel bodies and wrappers are
// printed through PythonWriter.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "autotune/config.h"
#include "autotune/targets.h"
#include "ir/nodes.h"
#include "passes/launch_plan.h"
#include "support/diagnostics.h"
#include "support/python_wrap.h"
#include "support/templates.h"

namespace helionc::backend::pallas {

// The TPU generations helionc targets ("tpu-v4", ...) and JAX's device kind for each ("TPU v4"),
// from configs/targets/*.yaml (autotune::builtin_targets).
const std::vector<std::pair<std::string, std::string>>& tpu_targets();

struct EmitOptions {
  std::string helionc_version;  // "0.1.0"
  std::string source_path;      // as given on the command line (comments use it)
  std::string source_sha256;    // of the source text
  std::string target = autotune::default_target().name;  // one of tpu_targets()
  // Tuning configs (--config), by index into ir::Module::kernels (the vector may be shorter);
  // a kernel without one uses built-in defaults.
  std::vector<std::optional<autotune::ConfigFile>> configs;
  // The templates to expand (TemplateSet::embedded(), or --template-dir). Null: embedded.
  const TemplateSet* templates = nullptr;
  // Python text placed after the kernels: the reference functions (`reference_<kernel>`),
  // printed by backend/reference, which this backend does not call (its value is
  // independence). `references_math`: that text uses the math module.
  std::string references;
  bool references_math = false;
  bool references_numpy = false;  // and numpy (callable parameters' tiles)
  // Each public function that takes arrays is a `jax.custom_vjp` differentiated through its
  // reference (host_printer.h); false (`--no-autodiff`), or no `references`, prints the Pallas
  // path alone.
  bool autodiff = true;
  // Lines longer than this are broken (wrap_python_lines); 0 keeps the printers' lines whole,
  // for tests of what the printers print.
  size_t line_width = kPythonLineWidth;
};

// `plans[i]` is the plan of `module.kernels[plans[i].kernel]`; every kernel needs one. Returns
// the module text, or nullopt after reporting errors (an unknown target, a config that does not
// fit its kernel, a template problem, an expression the backend cannot print).
std::optional<std::string> emit_module(const ir::Module& module,
                                       const std::vector<passes::KernelPlan>& plans,
                                       const EmitOptions& options, DiagnosticEngine& diags);

}  // namespace helionc::backend::pallas
