// The frontend's entry point: a parsed Helion file in, the typed tile IR of its kernels out.
#pragma once

#include <optional>
#include <string>

#include "ir/nodes.h"
#include "parse/syntax_tree.h"
#include "support/diagnostics.h"

namespace helionc::frontend {

struct FrontendOptions {
  std::optional<std::string> kernel_name;  // --kernel: only this kernel
};

// Lowers every kernel of the file (or only `kernel_name`). Errors go to `diags`; the module
// holds the kernels that lowered cleanly. No kernels at all is an error.
ir::Module lower_file(const parse::SyntaxTree& tree, const FrontendOptions& options,
                      DiagnosticEngine& diags);

}  // namespace helionc::frontend
