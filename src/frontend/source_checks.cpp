#include "frontend/source_checks.h"

#include <fmt/format.h>
#include <tree_sitter/api.h>

#include <algorithm>

#include "support/python_names.h"
#include "support/utf8.h"

namespace helionc::frontend {

// Bytes CPython refuses anywhere in a source file; the first of each kind is reported.
bool check_source_bytes(const SourceFile& file, DiagnosticEngine& diags) {
  const std::string_view text = file.text();
  bool ok = true;
  if (auto bad = first_invalid_utf8(text)) {
    const auto at = static_cast<uint32_t>(*bad);
    diags.error(DiagnosticKind::kSyntaxError, file.range(at, at + 1),
                fmt::format("byte 0x{:02x} is not UTF-8; Python reads source files as UTF-8",
                            static_cast<unsigned char>(text[*bad])));
    ok = false;
  }
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos) {
    const auto at = static_cast<uint32_t>(nul);
    diags.error(DiagnosticKind::kSyntaxError, file.range(at, at + 1),
                "a NUL byte in the source; Python refuses source files that contain one");
    ok = false;
  }
  return ok;
}

namespace {

bool is_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// The problem with one node ("" when none), and whether its children still need a look.
struct NodeProblem {
  std::string message;
  SourceRange range;
  bool descend = true;
};

NodeProblem check_node(const parse::SyntaxNode& node) {
  const std::string_view type = node.type();
  const std::string_view text = node.text();
  if (type == "identifier") {
    if (is_python_keyword(text)) {
      return {fmt::format("`{}` is a Python keyword and cannot be a name", text), node.range()};
    }
    if (!is_ascii(text)) {
      return {fmt::format("non-ASCII identifier `{}` is not supported yet (Python reads "
                          "identifiers after NFKC normalisation, helionc does not); use an "
                          "ASCII name",
                          text),
              node.range()};
    }
  } else if (type == "string") {
    if (const size_t cr = text.find('\r'); cr != std::string_view::npos) {
      const uint32_t at = node.start_byte() + static_cast<uint32_t>(cr);
      return {"a carriage return inside a string literal ends the line for Python; write `\\r`",
              node.range().file->range(at, at + 1), false};
    }
  }
  return {};
}

}  // namespace

bool check_python_source(const parse::SyntaxTree& tree, DiagnosticEngine& diags) {
  if (!check_source_bytes(tree.file(), diags)) return false;
  bool ok = true;
  // Iterative (a cursor, not recursion): nesting depth cannot exhaust the stack here.
  TSTreeCursor cursor = ts_tree_cursor_new(tree.root().raw());
  bool done = false;
  while (!done) {
    const parse::SyntaxNode node(&tree, ts_tree_cursor_current_node(&cursor));
    const NodeProblem problem = check_node(node);
    if (!problem.message.empty()) {
      diags.error(DiagnosticKind::kSyntaxError, problem.range, problem.message);
      ok = false;
    }
    if (problem.descend && ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        done = true;
        break;
      }
    }
  }
  ts_tree_cursor_delete(&cursor);
  return ok;
}

}  // namespace helionc::frontend
