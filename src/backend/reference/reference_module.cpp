#include "backend/reference/reference_module.h"

#include <fmt/format.h>

#include "backend/pallas/names.h"
#include "backend/pallas/py_expr.h"
#include "backend/reference/function_printer.h"
#include "support/python_writer.h"
#include "support/quote.h"

namespace helionc::backend::reference {

std::string reference_function_name(const ir::Kernel& kernel) {
  return pallas::reference_function_name(kernel.name);
}

namespace {

std::string refusal_message(const ir::Kernel& kernel, const Refusal& refusal) {
  return fmt::format("the reference of kernel `{}` cannot express {}", kernel.name, refusal.what);
}

// The function a kernel without a reference gets in the Pallas module: it says why, where.
std::string refusing_function(const ir::Kernel& kernel, const Refusal& refusal,
                              const std::string& source_path) {
  std::string place = source_path;
  if (refusal.range.valid()) {
    place += fmt::format(":{}", refusal.range.file->line_column(refusal.range.begin).line);
  }
  PythonWriter out;
  {
    auto body = out.block(fmt::format("def {}(*_, **__):", reference_function_name(kernel)));
    out.line(fmt::format(
        "raise NotImplementedError({})",
        pallas::py_string(fmt::format("{}: {}", place, refusal_message(kernel, refusal)))));
  }
  return out.str();
}

const TemplateSet& templates_of(const ReferenceOptions& options, TemplateSet& embedded) {
  if (options.templates != nullptr) return *options.templates;
  embedded = TemplateSet::embedded();
  return embedded;
}

std::optional<std::string> prelude(const ReferenceOptions& options, DiagnosticEngine& diags,
                                   bool callables = false) {
  TemplateSet embedded;
  const TemplateSet& templates = templates_of(options, embedded);
  auto text = templates.get("reference_prelude.py.tmpl");
  if (!text) {
    diags.error(DiagnosticKind::kInputFile, {}, text.error());
    return std::nullopt;
  }
  std::string prelude(*text);
  if (!callables) return prelude;
  // The helpers of callable parameters, only in modules whose kernels call one.
  auto extra = templates.get("reference_callables.py.tmpl");
  if (!extra) {
    diags.error(DiagnosticKind::kInputFile, {}, extra.error());
    return std::nullopt;
  }
  return prelude + "\n\n" + std::string(*extra);
}

}  // namespace

std::optional<ReferenceSection> reference_section(const ir::Module& module,
                                                  const ReferenceOptions& options,
                                                  DiagnosticEngine& diags) {
  std::vector<PrintedFunction> functions;
  ReferenceSection section;
  for (const ir::Kernel& kernel : module.kernels) {
    functions.push_back(print_reference_function(kernel, options.source_path));
    section.numpy |= functions.back().callables && !functions.back().refusal;
  }
  std::optional<std::string> text = prelude(options, diags, section.numpy);
  if (!text) return std::nullopt;
  for (size_t i = 0; i < module.kernels.size(); ++i) {
    const ir::Kernel& kernel = module.kernels[i];
    PrintedFunction& printed = functions[i];
    section.math |= printed.math;
    *text += "\n\n";
    if (printed.refusal) {
      diags.remark(printed.refusal->range, refusal_message(kernel, *printed.refusal) +
                                               "; its reference_" + kernel.name +
                                               " raises NotImplementedError");
      *text += refusing_function(kernel, *printed.refusal, options.source_path);
    } else {
      *text += printed.text;
    }
  }
  section.text = std::move(*text);
  return section;
}

std::optional<std::string> emit_reference_module(const ir::Module& module,
                                                 const ReferenceOptions& options,
                                                 DiagnosticEngine& diags) {
  std::string functions;
  bool math = false;
  bool callables = false;
  bool ok = true;
  for (const ir::Kernel& kernel : module.kernels) {
    PrintedFunction printed = print_reference_function(kernel, options.source_path);
    if (printed.refusal) {
      diags.error(DiagnosticKind::kUnsupported, printed.refusal->range,
                  refusal_message(kernel, *printed.refusal));
      ok = false;
      continue;
    }
    math |= printed.math;
    callables |= printed.callables;
    if (!functions.empty()) functions += "\n\n";
    functions += printed.text;
  }
  if (!ok) return std::nullopt;
  std::optional<std::string> text = prelude(options, diags, callables);
  if (!text) return std::nullopt;
  std::string imports = math ? "import math\n\n" : "";
  imports += "import jax\nimport jax.numpy as jnp\n";
  if (callables) imports += "import numpy as np\n";
  TemplateValues values = {
      {"version", options.helionc_version},
      {"source", one_line_text(options.source_path)},
      {"sha256", options.source_sha256},
      {"imports", imports},
      {"prelude", *text},
      {"functions", functions},
  };
  TemplateSet embedded;
  auto module_text = templates_of(options, embedded).expand("reference_module.py.tmpl", values);
  if (!module_text) {
    diags.error(DiagnosticKind::kInputFile, {}, module_text.error());
    return std::nullopt;
  }
  if (options.line_width == 0) return std::move(*module_text);
  return wrap_python_lines(*module_text, options.line_width);
}

}  // namespace helionc::backend::reference
