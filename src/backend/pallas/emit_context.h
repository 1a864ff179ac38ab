// State shared by the printers of one module: options, diagnostics, the imports the printed
// code needs, and source-line comments.
#pragma once

#include <string>

#include "backend/pallas/emit_module.h"
#include "backend/pallas/expr_printer.h"

namespace helionc::backend::pallas {

struct EmitContext {
  const EmitOptions& options;
  DiagnosticEngine& diags;
  OptionalImports imports;

  // "samples/add.py:12" for a statement's source range ("" without one).
  std::string where(const SourceRange& range) const;
  // `text` followed by a `  # samples/add.py:12` comment.
  std::string with_where(std::string text, const SourceRange& range) const;
  // The first line of the source a range covers, stripped (for a comment above a launch).
  std::string source_line(const SourceRange& range) const;
};

// The module-level names of a kernel's config table and default: `_ADD_CONFIGS`, `_ADD_DEFAULT`.
std::string config_table_name(const ir::Kernel& kernel);
std::string config_default_name(const ir::Kernel& kernel);

}  // namespace helionc::backend::pallas
