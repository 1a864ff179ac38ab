#include "frontend/frontend.h"

#include <fmt/format.h>

#include "frontend/kernel_discovery.h"
#include "frontend/kernel_lowering.h"
#include "frontend/source_checks.h"

namespace helionc::frontend {

ir::Module lower_file(const parse::SyntaxTree& tree, const FrontendOptions& options,
                      DiagnosticEngine& diags) {
  ir::Module module;
  module.source = &tree.file();
  if (!check_python_source(tree, diags)) return module;
  const ImportTable imports = ImportTable::from_module(tree.root());
  const std::vector<KernelSyntax> kernels = find_kernels(tree.root(), imports, diags);
  const SourceRange file_start = tree.file().range(0, 0);
  if (kernels.empty()) {
    diags.error(DiagnosticKind::kNoKernels, file_start,
                "no Helion kernels found; decorate a function with `@helion.kernel`");
    return module;
  }
  bool found = false;
  for (const KernelSyntax& kernel : kernels) {
    const std::string_view name = kernel.function.child_by_field("name").text();
    if (options.kernel_name && name != *options.kernel_name) continue;
    found = true;
    if (auto lowered = KernelLowering(kernel, imports, diags).run()) {
      module.kernels.push_back(std::move(*lowered));
    }
  }
  if (!found) {
    std::vector<std::string> names;
    for (const KernelSyntax& kernel : kernels) {
      names.push_back(fmt::format("`{}`", kernel.function.child_by_field("name").text()));
    }
    diags.error(DiagnosticKind::kUnknownKernel, {},
                fmt::format("no kernel named `{}` in {}; it defines {}", *options.kernel_name,
                            tree.file().path(), fmt::join(names, ", ")));
  }
  return module;
}

}  // namespace helionc::frontend
