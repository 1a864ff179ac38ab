// Shared by the frontend unit tests: lower a source string, keep the diagnostics.
#pragma once

#include <memory>
#include <string>

#include "frontend/frontend.h"
#include "ir/printer.h"
#include "parse/syntax_tree.h"
#include "support/diagnostics.h"

namespace helionc::testing {

struct Lowered {
  std::unique_ptr<SourceFile> file;
  std::unique_ptr<parse::SyntaxTree> tree;
  DiagnosticEngine diags;
  ir::Module module;

  std::string ir() const { return ir::print_module(module); }
  std::string errors() const { return diags.render(); }
};

// The standard imports of a Helion file, prepended to every test kernel (4 lines).
inline const char* kPrelude =
    "import torch\n"
    "import helion\n"
    "import helion.language as hl\n"
    "\n";

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

inline std::unique_ptr<Lowered> lower(const std::string& body, bool with_prelude = true) {
  auto result = std::make_unique<Lowered>();
  result->file = std::make_unique<SourceFile>("k.py", (with_prelude ? kPrelude : "") + body);
  result->tree = parse::SyntaxTree::parse(*result->file);
  if (parse::report_syntax_errors(*result->tree, result->diags)) {
    result->module = frontend::lower_file(*result->tree, {}, result->diags);
  }
  return result;
}

// Lowers `body` and returns the first line of the rendered diagnostics.
inline std::string first_error(const std::string& body) {
  const std::string text = lower(body)->errors();
  return text.substr(0, text.find('\n'));
}

}  // namespace helionc::testing
