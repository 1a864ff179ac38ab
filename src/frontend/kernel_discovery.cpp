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

// Collects the kernels in `node` and under it; `functions` are the functions around it.
void collect(const parse::SyntaxNode& node, const ImportTable& imports,
             std::vector<parse::SyntaxNode>& functions, std::vector<KernelSyntax>& kernels) {
  const std::string_view type = node.type();
  if (type == "decorated_definition") {
    if (const parse::SyntaxNode decorator = kernel_decorator(node, imports)) {
      kernels.push_back({node.child_by_field("definition"), decorator, node, functions});
      return;  // a kernel's body is not searched
    }
  } else if (type == "function_definition") {
    functions.push_back(node);
    collect(node.child_by_field("body"), imports, functions, kernels);
    functions.pop_back();
    return;
  } else if (type != "module" && type != "class_definition" && type != "block" &&
             !type.ends_with("_statement") && !type.ends_with("_clause")) {
    return;  // an expression: no definitions in it
  }
  // A class body is no scope for the functions in it; blocks are none at all.
  for (const parse::SyntaxNode& child : node.named_children()) {
    collect(child, imports, functions, kernels);
  }
}

}  // namespace

std::vector<KernelSyntax> find_kernels(const parse::SyntaxNode& module, const ImportTable& imports,
                                       DiagnosticEngine& diags) {
  std::vector<KernelSyntax> kernels;
  std::vector<parse::SyntaxNode> functions;
  for (const parse::SyntaxNode& stmt : module.named_children()) {
    const size_t before = kernels.size();
    collect(stmt, imports, functions, kernels);
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
