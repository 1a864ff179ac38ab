#include "frontend/frontend.h"

#include <fmt/format.h>

#include "frontend/kernel_discovery.h"
#include "frontend/kernel_lowering.h"
#include "frontend/source_checks.h"
#include "support/limits.h"

namespace helionc::frontend {

ir::Module lower_file(const parse::SyntaxTree& tree, const FrontendOptions& options,
                      DiagnosticEngine& diags) {
  ir::Module module;
  module.source = &tree.file();
  if (!check_python_source(tree, diags)) return module;
  const ImportTable imports = ImportTable::from_module(tree.root());
  const ModuleConstants constants = ModuleConstants::from_module(tree.root());
  const int errors_before = diags.error_count();
  const std::vector<KernelSyntax> kernels = find_kernels(tree.root(), imports, diags);
  if (diags.error_count() > errors_before) return module;  // a kernel decorator without import
  const SourceRange file_start = tree.file().range(0, 0);
  if (kernels.empty()) {
    diags.error(DiagnosticKind::kNoKernels, file_start,
                "no Helion kernels found; decorate a function with `@helion.kernel`");
    return module;
  }
  if (kernels.size() > limits::kMaxKernels) {
    const parse::SyntaxNode first_extra = kernels[limits::kMaxKernels].function;
    diags.error(DiagnosticKind::kLimitExceeded, first_extra.child_by_field("name").range(),
                fmt::format("this file defines {} kernels; helionc compiles at most {} from one "
                            "file",
                            kernels.size(), limits::kMaxKernels));
    return module;
  }
  bool found = false;
  for (const KernelSyntax& kernel : kernels) {
    const std::string_view name = kernel.function.child_by_field("name").text();
    if (options.kernel_name && name != *options.kernel_name) continue;
    found = true;
    // A kernel nested in a function also reads that function's names.
    const ModuleConstants scoped =
        kernel.enclosing_functions.empty()
            ? constants
            : constants.enclosed_by(kernel.enclosing_functions, kernel.decorated.range().begin);
    if (auto lowered = KernelLowering(kernel, imports, scoped, diags).run()) {
      module.kernels.push_back(std::move(*lowered));
    }
  }
  if (!found) {
    // At the top of the file, with a note at each kernel it does define.
    std::vector<std::string> names;
    for (const KernelSyntax& kernel : kernels) {
      names.push_back(fmt::format("`{}`", kernel.function.child_by_field("name").text()));
    }
    Diagnostic& error = diags.error(DiagnosticKind::kUnknownKernel, file_start,
                                    fmt::format("no kernel named `{}` in this file; it defines {}",
                                                *options.kernel_name, fmt::join(names, ", ")));
    for (const KernelSyntax& kernel : kernels) {
      const parse::SyntaxNode name = kernel.function.child_by_field("name");
      error.note(name.range(), fmt::format("kernel `{}` is defined here", name.text()));
    }
  }
  return module;
}

}  // namespace helionc::frontend
