// Finds the kernels of a file: every function decorated with `@helion.kernel`,
// `@helion.kernel()`, `@helion.kernel(...)` or `@helion.jit` (through any import alias), at the
// top level or nested in functions, classes and blocks (a kernel in a test method, a kernel
// factory). A kernel's own body is not searched. Every other statement of the file (helpers,
// `main`, `check`, `if __name__ == ...`) is skipped; -v lists the skipped top-level functions.
#pragma once

#include <vector>

#include "frontend/imports.h"
#include "parse/syntax_tree.h"
#include "support/diagnostics.h"

namespace helionc::frontend {

struct KernelSyntax {
  parse::SyntaxNode function;   // the function_definition
  parse::SyntaxNode decorator;  // the decorator's expression (a call when it has arguments)
  parse::SyntaxNode decorated;  // the decorated_definition (decorators and `def`)
  // The function_definitions around a nested kernel, outermost first (empty at the top level).
  std::vector<parse::SyntaxNode> enclosing_functions;
};

std::vector<KernelSyntax> find_kernels(const parse::SyntaxNode& module, const ImportTable& imports,
                                       DiagnosticEngine& diags);

}  // namespace helionc::frontend
