// tree-sitter, owned: RAII handles for the parser and tree, and a small read-only view of nodes.
// A SyntaxNode never outlives its SyntaxTree (it holds a pointer to it).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tree_sitter/api.h>

#include "support/diagnostics.h"
#include "support/source.h"

namespace helionc::parse {

class SyntaxTree;

// Whether `node` is an ERROR node, by tree-sitter's built-in symbol for them
// (`ts_builtin_sym_error`: the 0.20 runtime has neither it nor ts_node_is_error in its API).
inline bool is_error_node(TSNode node) { return ts_node_symbol(node) == static_cast<TSSymbol>(-1); }

// A tree-sitter cursor deleted with its scope.
class TreeCursor {
 public:
  explicit TreeCursor(TSNode node) : cursor_(ts_tree_cursor_new(node)) {}
  ~TreeCursor() { ts_tree_cursor_delete(&cursor_); }
  TreeCursor(const TreeCursor&) = delete;
  TreeCursor& operator=(const TreeCursor&) = delete;
  TSTreeCursor* get() { return &cursor_; }
  TSNode node() const { return ts_tree_cursor_current_node(&cursor_); }

 private:
  TSTreeCursor cursor_;
};

// Calls `visit(child)` for every child of `node` (anonymous ones included), in order. Walks
// with a cursor because ts_node_child(node, i) searches from the first child on every call, so a
// loop over it takes time quadratic in the number of children.
template <typename Visit>
void for_each_child(TSNode node, Visit&& visit) {
  TreeCursor cursor(node);
  if (!ts_tree_cursor_goto_first_child(cursor.get())) return;
  do {
    visit(cursor.node());
  } while (ts_tree_cursor_goto_next_sibling(cursor.get()));
}

class SyntaxNode {
 public:
  SyntaxNode() = default;
  SyntaxNode(const SyntaxTree* tree, TSNode node) : tree_(tree), node_(node) {}

  bool is_null() const { return tree_ == nullptr || ts_node_is_null(node_); }
  explicit operator bool() const { return !is_null(); }

  std::string_view type() const;  // the grammar's node type, e.g. "call", "identifier"
  bool is_named() const;
  bool is_error() const;    // an ERROR node
  bool is_missing() const;  // a MISSING node inserted by error recovery
  bool has_error() const;   // this node or a descendant is ERROR/MISSING

  SyntaxNode child_by_field(std::string_view field) const;  // null view if absent
  // Every child under a field name (e.g. the "alias" fields of an import).
  std::vector<SyntaxNode> children_by_field(std::string_view field) const;
  std::vector<SyntaxNode> named_children() const;  // comments excluded
  std::vector<SyntaxNode> children() const;        // anonymous tokens included
  SyntaxNode parent() const;

  std::string_view text() const;  // the source text the node spans
  SourceRange range() const;
  uint32_t start_byte() const;
  uint32_t end_byte() const;

  // The underlying tree-sitter node, for queries and cursors; valid while the tree lives.
  TSNode raw() const { return node_; }
  const SyntaxTree* tree() const { return tree_; }

 private:
  const SyntaxTree* tree_ = nullptr;
  TSNode node_{};
};

class SyntaxTree {
 public:
  // Parses the whole file with tree-sitter-python. Never fails for valid UTF-8: syntax errors
  // become ERROR/MISSING nodes, reported by report_syntax_errors. Returns null only when the
  // runtime rejects the grammar (an ABI mismatch, which check_grammar_abi reports first).
  // `file` must outlive the tree.
  static std::unique_ptr<SyntaxTree> parse(const SourceFile& file);
  ~SyntaxTree();
  SyntaxTree(const SyntaxTree&) = delete;
  SyntaxTree& operator=(const SyntaxTree&) = delete;

  SyntaxNode root() const;
  const SourceFile& file() const { return file_; }
  // The underlying tree-sitter tree (owned here), for queries and cursors.
  const TSTree* raw() const { return tree_; }

 private:
  SyntaxTree(const SourceFile& file, TSTree* tree) : file_(file), tree_(tree) {}
  const SourceFile& file_;
  TSTree* tree_;
};

// The limits of support/limits.h that the syntax tree shows: brackets open at once, the tree's
// depth and the length of identifiers. Reports the first place that crosses one (a
// `limit-exceeded` error) and returns false there. Iterative, so any tree is safe to check.
bool check_syntax_limits(const SyntaxTree& tree, DiagnosticEngine& diags);

// The first statement indented past limits::kMaxIndentColumns, which the parser cannot read:
// its offset and the message. Looked for only in a file that failed to parse.
std::optional<std::pair<uint32_t, std::string>> find_too_deep_indentation(const SyntaxTree& tree);

// Checks the syntax limits first (check_syntax_limits; nothing else is reported when one is
// crossed, since the walks below recurse over the tree), then reports every ERROR node ("invalid
// syntax") and MISSING node ("expected `)`") as a syntax error at its position. Returns true when
// the tree was clean. ERROR nodes get the most precise message that can be read off them ("`(` was
// never closed", "expected `:`", "unexpected `=`"), and two mistakes tree-sitter-python accepts
// silently are reported too: an empty block
// ("expected an indented block") and a statement indented unlike its siblings.
bool report_syntax_errors(const SyntaxTree& tree, DiagnosticEngine& diags);

// The grammar's ABI must lie in the runtime's supported range; checked once at start-up.
// Returns an error message when it does not.
std::optional<std::string> check_grammar_abi();
// The same check for a given grammar ABI version (testable without another grammar).
std::optional<std::string> check_grammar_abi_version(uint32_t grammar_abi);
// The pinned tree-sitter-python version ("0.23.6"), for --version output.
std::string_view grammar_version();

}  // namespace helionc::parse
