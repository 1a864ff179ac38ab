#include "frontend/kernel_discovery.h"

#include <fmt/format.h>

namespace helionc::frontend {

namespace {

parse::SyntaxNode decorator_callee(const parse::SyntaxNode& expr) {
  return expr.type() == "call" ? expr.child_by_field("function") : expr;
}

bool is_kernel_decorator_name(std::string_view name) {
  // `helion.aot_kernel` is a kernel whose configs Helion tunes ahead of time by shape: the same
  // kernel here (its tuning keywords have no meaning for helionc and are ignored).
  return name == "helion.kernel" || name == "helion.jit" || name == "helion.aot_kernel" ||
         name == "helion.runtime.kernel.kernel";
}

bool is_kernel_decorator(const parse::SyntaxNode& expr, const ImportTable& imports) {
  const auto name = imports.qualified_name(decorator_callee(expr));
  return name && is_kernel_decorator_name(*name);
}

// `@helion.kernel` written as such in a file that never imports `helion`: Python stops with a
// NameError at the decorator, and without the import the kernel is none to find.
bool is_unimported_kernel_decorator(const parse::SyntaxNode& expr, const ImportTable& imports) {
  const parse::SyntaxNode callee = decorator_callee(expr);
  return callee.type() == "attribute" && !imports.qualified_name(callee) &&
         is_kernel_decorator_name(callee.text());
}

// The kernel decorator of a decorated_definition of a function; a null node when it has none.
parse::SyntaxNode kernel_decorator(const parse::SyntaxNode& decorated, const ImportTable& imports) {
  if (decorated.child_by_field("definition").type() != "function_definition") return {};
  parse::SyntaxNode found;
  for (const parse::SyntaxNode& child : decorated.named_children()) {
    if (child.type() != "decorator") continue;
    const auto expr = child.named_children();
    if (!expr.empty() && is_kernel_decorator(expr.front(), imports)) found = expr.front();
  }
  return found;
}

// The first decorator of a function that would be a kernel's if `helion` were imported.
parse::SyntaxNode unimported_kernel_decorator(const parse::SyntaxNode& decorated,
                                              const ImportTable& imports) {
  if (decorated.child_by_field("definition").type() != "function_definition") return {};
  for (const parse::SyntaxNode& child : decorated.named_children()) {
    if (child.type() != "decorator") continue;
    const auto expr = child.named_children();
    if (!expr.empty() && is_unimported_kernel_decorator(expr.front(), imports)) {
      return expr.front();
    }
  }
  return {};
}

// Collects the kernels in `node` and under it; `functions` are the functions around it.
void collect(const parse::SyntaxNode& node, const ImportTable& imports,
             std::vector<parse::SyntaxNode>& functions, std::vector<KernelSyntax>& kernels,
             DiagnosticEngine& diags) {
  const std::string_view type = node.type();
  if (type == "decorated_definition") {
    if (const parse::SyntaxNode decorator = kernel_decorator(node, imports)) {
      kernels.push_back({node.child_by_field("definition"), decorator, node, functions});
      return;  // a kernel's body is not searched
    }
    if (const parse::SyntaxNode decorator = unimported_kernel_decorator(node, imports)) {
      diags.error(DiagnosticKind::kNoKernels, decorator.range(),
                  fmt::format("`@{}` needs `import helion` at the top of the file; without it "
                              "this function is no Helion kernel (Python stops here with a "
                              "NameError)",
                              decorator_callee(decorator).text()));
      return;
    }
  } else if (type == "function_definition") {
    functions.push_back(node);
    collect(node.child_by_field("body"), imports, functions, kernels, diags);
    functions.pop_back();
    return;
  } else if (type != "module" && type != "class_definition" && type != "block" &&
             !type.ends_with("_statement") && !type.ends_with("_clause")) {
    return;  // an expression: no definitions in it
  }
  // A class body is no scope for the functions in it; blocks are none at all.
  for (const parse::SyntaxNode& child : node.named_children()) {
    collect(child, imports, functions, kernels, diags);
  }
}

}  // namespace

std::vector<KernelSyntax> find_kernels(const parse::SyntaxNode& module, const ImportTable& imports,
                                       DiagnosticEngine& diags) {
  std::vector<KernelSyntax> kernels;
  std::vector<parse::SyntaxNode> functions;
  for (const parse::SyntaxNode& stmt : module.named_children()) {
    const size_t before = kernels.size();
    collect(stmt, imports, functions, kernels, diags);
    const parse::SyntaxNode definition =
        stmt.type() == "decorated_definition" ? stmt.child_by_field("definition") : stmt;
    if (kernels.size() == before && definition.type() == "function_definition") {
      diags.remark(definition.child_by_field("name").range(),
                   fmt::format("skipping `{}`: not a Helion kernel",
                               definition.child_by_field("name").text()));
    }
  }
  return kernels;
}

}  // namespace helionc::frontend
