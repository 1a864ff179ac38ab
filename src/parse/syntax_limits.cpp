// The input limits that only the syntax tree shows (support/limits.h): brackets open at once,
// the depth of the tree and the length of identifiers. One iterative walk with a cursor, before
// anything recurses over the tree: every later walk (the syntax-error report, the frontend, the
// IR passes and printers) recurses, and is safe only because this check bounds the depth.
#include <fmt/format.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "parse/syntax_tree.h"
#include "support/limits.h"

namespace helionc::parse {
namespace {

struct LimitFinding {
  uint32_t begin = 0;
  uint32_t end = 0;
  std::string message;
};

class LimitChecker {
 public:
  explicit LimitChecker(std::string_view text) : text_(text) {}

  // Visits every node in source order; stops at the first one past a limit.
  std::optional<LimitFinding> run(TSNode root) {
    TreeCursor cursor(root);
    uint32_t depth = 1;
    while (true) {
      TSNode node = cursor.node();
      if (depth > limits::kMaxSyntaxDepth) {
        return LimitFinding{ts_node_start_byte(node), ts_node_start_byte(node),
                            fmt::format("this code is nested too deeply (more than {} levels of "
                                        "syntax); split it into several statements",
                                        limits::kMaxSyntaxDepth)};
      }
      if (ts_tree_cursor_goto_first_child(cursor.get())) {
        ++depth;
        continue;
      }
      if (auto finding = check_leaf(node)) return finding;
      while (!ts_tree_cursor_goto_next_sibling(cursor.get())) {
        if (!ts_tree_cursor_goto_parent(cursor.get())) return std::nullopt;
        --depth;
      }
    }
  }

 private:
  std::optional<LimitFinding> check_leaf(TSNode leaf) {
    uint32_t begin = ts_node_start_byte(leaf);
    uint32_t end = ts_node_end_byte(leaf);
    if (begin >= end || end > text_.size()) return std::nullopt;  // MISSING leaves are empty
    std::string_view token = text_.substr(begin, end - begin);
    if (std::string_view(ts_node_type(leaf)) == "identifier" &&
        token.size() > limits::kMaxIdentifierBytes) {
      return LimitFinding{begin, end,
                          fmt::format("this identifier is {} bytes long; helionc accepts at most "
                                      "{}",
                                      token.size(), limits::kMaxIdentifierBytes)};
    }
    // Brackets are anonymous one-character tokens; a `(` inside a string is string content.
    if (ts_node_is_named(leaf) || token.size() != 1) return std::nullopt;
    if (token == "(" || token == "[" || token == "{") {
      if (++open_brackets_ > limits::kMaxBracketDepth) {
        return LimitFinding{begin, end,
                            fmt::format("too many nested parentheses (more than {} brackets open "
                                        "at once)",
                                        limits::kMaxBracketDepth)};
      }
    } else if ((token == ")" || token == "]" || token == "}") && open_brackets_ > 0) {
      --open_brackets_;
    }
    return std::nullopt;
  }

  std::string_view text_;
  uint32_t open_brackets_ = 0;
};

// Whether `offset` lies in a string literal (whose lines may be indented any depth).
bool in_string(TSNode root, uint32_t offset) {
  for (TSNode node = ts_node_descendant_for_byte_range(root, offset, offset + 1);
       !ts_node_is_null(node); node = ts_node_parent(node)) {
    if (std::string_view(ts_node_type(node)) == "string") return true;
  }
  return false;
}

}  // namespace

std::optional<std::pair<uint32_t, std::string>> find_too_deep_indentation(const SyntaxTree& tree) {
  const std::string_view text = tree.file().text();
  size_t line = 0;
  while (line < text.size()) {
    size_t next = text.find('\n', line);
    next = next == std::string_view::npos ? text.size() : next + 1;
    uint32_t columns = 0;
    size_t first = line;
    for (; first < text.size() && (text[first] == ' ' || text[first] == '\t'); ++first) {
      columns += text[first] == '\t' ? 8 : 1;
    }
    const bool statement =
        first < text.size() && text[first] != '\n' && text[first] != '\r' && text[first] != '#';
    if (statement && columns > limits::kMaxIndentColumns &&
        !in_string(ts_tree_root_node(tree.raw()), static_cast<uint32_t>(first))) {
      return std::pair{static_cast<uint32_t>(first),
                       fmt::format("this line is indented {} columns; helionc's parser reads at "
                                   "most {} (a tab counts 8): indent less",
                                   columns, limits::kMaxIndentColumns)};
    }
    line = next;
  }
  return std::nullopt;
}

bool check_syntax_limits(const SyntaxTree& tree, DiagnosticEngine& diags) {
  std::optional<LimitFinding> finding =
      LimitChecker(tree.file().text()).run(ts_tree_root_node(tree.raw()));
  if (!finding) return true;
  diags.error(DiagnosticKind::kLimitExceeded, tree.file().range(finding->begin, finding->end),
              std::move(finding->message));
  return false;
}

}  // namespace helionc::parse
