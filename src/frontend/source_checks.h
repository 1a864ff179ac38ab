// What CPython refuses in a source file but tree-sitter accepts, refused here so that no module
// is written for a file Python would not run: bytes that are not UTF-8 and NUL bytes anywhere,
// keywords used as names (`def if(...)`), a carriage return inside a string literal (Python
// ends the line there). Also identifiers that are not ASCII: Python reads identifiers after
// NFKC normalisation (fullwidth `ｉｎｔｅｒｐｒｅｔ` is `interpret`), which helionc does not
// implement, so two names distinct here could be one name in the module.
#pragma once

#include "parse/syntax_tree.h"
#include "support/diagnostics.h"

namespace helionc::frontend {

// The byte-level part (UTF-8, NUL), for the driver to run before parsing: tree-sitter would
// report such bytes as some other syntax error. True when there was no problem.
bool check_source_bytes(const SourceFile& file, DiagnosticEngine& diags);

// Reports every problem above (check_source_bytes included); true when there was none.
bool check_python_source(const parse::SyntaxTree& tree, DiagnosticEngine& diags);

}  // namespace helionc::frontend
