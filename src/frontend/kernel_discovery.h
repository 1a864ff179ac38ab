// Finds the kernels of a file: every function decorated with `@helion.kernel`,
// `@helion.kernel()`, `@helion.kernel(...)` or `@helion.jit` (through any import alias). Every
// other statement of the file (helpers, `main`, `check`, `if __name__ == ...`) is skipped; -v
// lists the skipped functions.
#pragma once

#include <vector>

#include "frontend/imports.h"
#include "parse/syntax_tree.h"
#include "support/diagnostics.h"

namespace helionc::frontend {

struct KernelSyntax {
  parse::SyntaxNode function;   // the function_definition
  parse::SyntaxNode decorator;  // the decorator's expression (a call when it has arguments)
};

std::vector<KernelSyntax> find_kernels(const parse::SyntaxNode& module, const ImportTable& imports,
                                       DiagnosticEngine& diags);

}  // namespace helionc::frontend
