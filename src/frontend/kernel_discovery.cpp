#include "frontend/kernel_discovery.h"

#include <fmt/format.h>

namespace helionc::frontend {

namespace {

bool is_kernel_decorator(const parse::SyntaxNode& expr, const ImportTable& imports) {
  const parse::SyntaxNode callee = expr.type() == "call" ? expr.child_by_field("function") : expr;
  const auto name = imports.qualified_name(callee);
  // `helion.aot_kernel` is a kernel whose configs Helion tunes ahead of time by shape: the same
  // kernel here (its tuning keywords have no meaning for helionc and are ignored).
  return name && (*name == "helion.kernel" || *name == "helion.jit" ||
                  *name == "helion.aot_kernel" || *name == "helion.runtime.kernel.kernel");
}

}  // namespace

std::vector<KernelSyntax> find_kernels(const parse::SyntaxNode& module, const ImportTable& imports,
                                       DiagnosticEngine& diags) {
  std::vector<KernelSyntax> kernels;
  for (const parse::SyntaxNode& stmt : module.named_children()) {
    if (stmt.type() == "function_definition") {
      diags.remark(
          stmt.child_by_field("name").range(),
          fmt::format("skipping `{}`: not a Helion kernel", stmt.child_by_field("name").text()));
      continue;
    }
    if (stmt.type() != "decorated_definition") continue;
    const parse::SyntaxNode definition = stmt.child_by_field("definition");
    if (definition.type() != "function_definition") continue;
    parse::SyntaxNode kernel_decorator;
    for (const parse::SyntaxNode& child : stmt.named_children()) {
      if (child.type() != "decorator") continue;
      const auto expr = child.named_children();
      if (!expr.empty() && is_kernel_decorator(expr.front(), imports))
        kernel_decorator = expr.front();
    }
    if (!kernel_decorator) {
      diags.remark(definition.child_by_field("name").range(),
                   fmt::format("skipping `{}`: not a Helion kernel",
                               definition.child_by_field("name").text()));
      continue;
    }
    kernels.push_back({definition, kernel_decorator});
  }
  return kernels;
}

}  // namespace helionc::frontend
