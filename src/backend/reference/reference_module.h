// The reference backend's entry points: every kernel of a module as a plain jnp function,
// `reference_<kernel>`, printed from the typed tile IR on its own (README.md). The Pallas module
// carries these functions (reference_section); `--emit reference` writes them alone
// (emit_reference_module).
#pragma once

#include <optional>
#include <string>

#include "ir/nodes.h"
#include "support/diagnostics.h"
#include "support/python_wrap.h"
#include "support/templates.h"

namespace helionc::backend::reference {

struct ReferenceOptions {
  std::string helionc_version;  // "0.1.0"
  std::string source_path;      // as given on the command line (comments and messages use it)
  std::string source_sha256;    // of the source text
  // The templates (TemplateSet::embedded(), or --template-dir). Null: embedded.
  const TemplateSet* templates = nullptr;
  // Lines longer than this are broken (wrap_python_lines); 0 keeps them whole.
  size_t line_width = kPythonLineWidth;
};

// The public name of a kernel's reference: `reference_add`.
std::string reference_function_name(const ir::Kernel& kernel);

// What the Pallas module includes: the reference prelude and one `reference_<kernel>` per
// kernel. A kernel with a construct the reference cannot express gets a function that raises
// NotImplementedError naming it (and a remark, shown under -v). `math`: the text uses the math
// module. Lines are not broken here (the module's text is, as a whole).
struct ReferenceSection {
  std::string text;
  bool math = false;
  bool numpy = false;  // callable parameters' helpers (templates/reference_callables.py.tmpl)
};
std::optional<ReferenceSection> reference_section(const ir::Module& module,
                                                  const ReferenceOptions& options,
                                                  DiagnosticEngine& diags);

// `--emit reference`: a module holding only the references. A kernel the reference cannot
// express is an error at the construct (nothing is written).
std::optional<std::string> emit_reference_module(const ir::Module& module,
                                                 const ReferenceOptions& options,
                                                 DiagnosticEngine& diags);

}  // namespace helionc::backend::reference
