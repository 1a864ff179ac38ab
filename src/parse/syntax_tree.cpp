// tree-sitter-python behind RAII handles, and the syntax-error report.
#include "parse/syntax_tree.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "tree_sitter_python.h"

namespace helionc::parse {
namespace {

struct ParserDeleter {
  void operator()(TSParser* parser) const { ts_parser_delete(parser); }
};
using ParserHandle = std::unique_ptr<TSParser, ParserDeleter>;

// Where a string literal opening at `text[i]` (a quote) ends: one past its closing quote, or
// npos when it is not closed (a single-quoted string at the end of its line, or the file's end).
// Prefixes do not matter: a backslash keeps the next character from closing the string in raw
// strings too, and an f-string's nested strings use the other quote (Python 3.11).
size_t string_end(std::string_view text, size_t i) {
  const char quote = text[i];
  const bool triple = text.substr(i, 3) == std::string(3, quote);
  for (size_t k = i + (triple ? 3 : 1); k < text.size(); ++k) {
    const char c = text[k];
    if (c == '\\') {
      ++k;
    } else if (!triple && (c == '\n' || c == '\r')) {
      return std::string_view::npos;
    } else if (c == quote && (!triple || text.substr(k, 3) == std::string(3, quote))) {
      return k + (triple ? 3 : 1);
    }
  }
  return std::string_view::npos;
}

// The text tree-sitter parses: the file with the comment of each comment-only line blanked out.
// tree-sitter-python's scanner, at every line break inside a block, looks ahead over all the
// comment lines that follow to find the next statement's indentation, so a run of n comment lines
// costs n^2 (20,000 took 26 s; 111 s with quotes in them); blank lines it skips in one pass. A
// line is blanked only when a scan of the string literals before it shows it outside every
// string (a `#` line inside a triple-quoted string is the string's text); if the scan loses its
// way (a string not closed), the rest of the file is left as it is. One byte for one, so every
// offset is the file's; node text is always read from the file.
std::string text_for_parser(std::string_view text) {
  std::string result(text);
  size_t i = 0;
  bool line_start = true;  // only blanks and tabs so far on this line
  while (i < text.size()) {
    const char c = text[i];
    if (c == '#') {
      // A comment ends at a line feed or a carriage return (a lone CR ends a line, as in
      // CPython).
      size_t end = text.find_first_of("\r\n", i);
      if (end == std::string_view::npos) end = text.size();
      if (line_start) {
        std::fill(result.begin() + static_cast<std::ptrdiff_t>(i),
                  result.begin() + static_cast<std::ptrdiff_t>(end), ' ');
      }
      i = end;
      continue;
    }
    if (c == '\'' || c == '"') {
      const size_t end = string_end(text, i);
      if (end == std::string_view::npos) break;
      i = end;
      line_start = false;
      continue;
    }
    line_start = c == '\n' || c == '\r' || (line_start && (c == ' ' || c == '\t' || c == '\f'));
    ++i;
  }
  return result;
}

}  // namespace

// ---- SyntaxNode ------------------------------------------------------------------------------

std::string_view SyntaxNode::type() const { return is_null() ? "" : ts_node_type(node_); }
bool SyntaxNode::is_named() const { return !is_null() && ts_node_is_named(node_); }
bool SyntaxNode::is_error() const { return !is_null() && is_error_node(node_); }
bool SyntaxNode::is_missing() const { return !is_null() && ts_node_is_missing(node_); }
bool SyntaxNode::has_error() const { return !is_null() && ts_node_has_error(node_); }

SyntaxNode SyntaxNode::child_by_field(std::string_view field) const {
  if (is_null()) return {};
  TSNode child =
      ts_node_child_by_field_name(node_, field.data(), static_cast<uint32_t>(field.size()));
  if (ts_node_is_null(child)) return {};
  return {tree_, child};
}

std::vector<SyntaxNode> SyntaxNode::children_by_field(std::string_view field) const {
  std::vector<SyntaxNode> result;
  if (is_null()) return result;
  TSFieldId id = ts_language_field_id_for_name(ts_tree_language(tree_->raw()), field.data(),
                                               static_cast<uint32_t>(field.size()));
  if (id == 0) return result;  // not a field of this grammar
  TreeCursor cursor(node_);
  if (!ts_tree_cursor_goto_first_child(cursor.get())) return result;
  do {
    if (ts_tree_cursor_current_field_id(cursor.get()) == id) {
      result.emplace_back(tree_, cursor.node());
    }
  } while (ts_tree_cursor_goto_next_sibling(cursor.get()));
  return result;
}

std::vector<SyntaxNode> SyntaxNode::named_children() const {
  std::vector<SyntaxNode> result;
  if (is_null()) return result;
  result.reserve(ts_node_named_child_count(node_));
  for_each_child(node_, [&](TSNode child) {
    if (ts_node_is_named(child) && std::string_view(ts_node_type(child)) != "comment") {
      result.emplace_back(tree_, child);
    }
  });
  return result;
}

std::vector<SyntaxNode> SyntaxNode::children() const {
  std::vector<SyntaxNode> result;
  if (is_null()) return result;
  result.reserve(ts_node_child_count(node_));
  for_each_child(node_, [&](TSNode child) { result.emplace_back(tree_, child); });
  return result;
}

SyntaxNode SyntaxNode::parent() const {
  if (is_null()) return {};
  TSNode parent = ts_node_parent(node_);
  if (ts_node_is_null(parent)) return {};
  return {tree_, parent};
}

std::string_view SyntaxNode::text() const {
  if (is_null()) return {};
  std::string_view source = tree_->file().text();
  uint32_t begin = start_byte();
  uint32_t end = end_byte();
  if (begin > source.size()) return {};
  return source.substr(begin, end - begin);
}

SourceRange SyntaxNode::range() const {
  if (is_null()) return {};
  return tree_->file().range(start_byte(), end_byte());
}

uint32_t SyntaxNode::start_byte() const { return is_null() ? 0 : ts_node_start_byte(node_); }
uint32_t SyntaxNode::end_byte() const { return is_null() ? 0 : ts_node_end_byte(node_); }

// ---- SyntaxTree ------------------------------------------------------------------------------

std::unique_ptr<SyntaxTree> SyntaxTree::parse(const SourceFile& file) {
  ParserHandle parser(ts_parser_new());
  // Fails only when the grammar's ABI is outside the runtime's range (see check_grammar_abi).
  if (!ts_parser_set_language(parser.get(), tree_sitter_python())) return nullptr;
  const std::string text = text_for_parser(file.text());
  TSTree* tree = ts_parser_parse_string(parser.get(), nullptr, text.data(),
                                        static_cast<uint32_t>(text.size()));
  if (tree == nullptr) return nullptr;
  return std::unique_ptr<SyntaxTree>(new SyntaxTree(file, tree));
}

SyntaxTree::~SyntaxTree() { ts_tree_delete(tree_); }

SyntaxNode SyntaxTree::root() const { return {this, ts_tree_root_node(tree_)}; }

std::optional<std::string> check_grammar_abi() {
  return check_grammar_abi_version(ts_language_version(tree_sitter_python()));
}

std::optional<std::string> check_grammar_abi_version(uint32_t grammar_abi) {
  if (grammar_abi >= TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION &&
      grammar_abi <= TREE_SITTER_LANGUAGE_VERSION) {
    return std::nullopt;
  }
  return fmt::format(
      "the tree-sitter-python grammar has language ABI {}, but this tree-sitter runtime accepts "
      "ABI {} to {}; build with a grammar generated for this runtime (tree-sitter-python 0.23.x "
      "for Debian 12's runtime)",
      grammar_abi, TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION, TREE_SITTER_LANGUAGE_VERSION);
}

std::string_view grammar_version() { return HELIONC_TREE_SITTER_PYTHON_VERSION; }

}  // namespace helionc::parse
