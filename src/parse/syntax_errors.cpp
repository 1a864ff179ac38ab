// The syntax-error report: tree-sitter's ERROR and MISSING nodes, turned into messages that say
// what went wrong where, plus the few Python rules tree-sitter-python's recovery lets through
// silently (an empty block, a statement indented differently from its siblings).
//
// One diagnostic per ERROR node, never one for an error nested inside another. For an ERROR
// node the most useful of these is reported, the earliest first:
//   - an unbalanced bracket inside it ("`(` was never closed", "unmatched `)`");
//   - a compound-statement header without its colon ("expected `:`");
//   - an operator or keyword left dangling at the end of a line;
//   - otherwise the first token that tree-sitter could not place ("unexpected `=`").
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "parse/syntax_tree.h"

namespace helionc::parse {
namespace {

bool is_leaf(TSNode node) { return ts_node_child_count(node) == 0; }
std::string_view node_type(TSNode node) { return ts_node_type(node); }

// Python keywords that open a compound statement whose header ends in `:`.
bool opens_compound_statement(std::string_view token) {
  static constexpr std::string_view kKeywords[] = {"def",     "class", "if",    "elif", "else",
                                                   "for",     "while", "with",  "try",  "except",
                                                   "finally", "async", "match", "case"};
  return std::find(std::begin(kKeywords), std::end(kKeywords), token) != std::end(kKeywords);
}

char closer_for(char opener) {
  switch (opener) {
    case '(':
      return ')';
    case '[':
      return ']';
    default:
      return '}';
  }
}

struct Finding {
  uint32_t begin;
  uint32_t end;
  std::string message;
};

// How a token reads in a message: verbatim in backticks, cut when long.
std::string quote_token(std::string_view text) {
  text = text.substr(0, text.find('\n'));
  constexpr size_t kMaxShown = 24;
  if (text.size() > kMaxShown) return fmt::format("`{}...`", text.substr(0, kMaxShown));
  return fmt::format("`{}`", text);
}

// What a MISSING node stands for: a token in backticks ("`)`"), or a grammar rule in words ("an
// identifier").
std::string describe_missing(TSNode node) {
  std::string_view type = node_type(node);
  if (!ts_node_is_named(node)) return fmt::format("`{}`", type);
  std::string words(type);
  std::replace(words.begin(), words.end(), '_', ' ');
  if (words.empty()) return "a token";
  bool vowel = std::string_view("aeiou").find(words[0]) != std::string_view::npos;
  return fmt::format("{} {}", vowel ? "an" : "a", words);
}

class SyntaxErrorFinder {
 public:
  explicit SyntaxErrorFinder(const SourceFile& file) : text_(file.text()) {}

  // `parent` is null for the root. (ts_node_parent is unreliable for the zero-width nodes that
  // recovery creates, so the walk passes it down.)
  void visit(TSNode node, TSNode parent) {
    if (is_error_node(node)) {
      // A statement that parsed with errors of its own inside the ERROR (recovery can wrap a
      // whole broken function in one) reports them itself; the rest is this one error.
      for_each_child(node, [&](TSNode child) {
        if (has_errors_of_its_own(child)) visit(child, node);
      });
      findings_.push_back(explain_error(node));
      return;
    }
    if (ts_node_is_missing(node)) {
      uint32_t at = ts_node_start_byte(node);
      findings_.push_back({at, at, fmt::format("expected {}", describe_missing(node))});
      return;
    }
    if (auto header = header_without_colon(node)) {
      findings_.push_back(std::move(*header));
      return;  // what follows the header is read wrongly; its errors follow from this one
    }
    std::string_view type = node_type(node);
    bool parent_has_error = !ts_node_is_null(parent) && ts_node_has_error(parent);
    if ((type == "block" || type == "module") && !parent_has_error) check_statements(node, parent);
    for_each_child(node, [&](TSNode child) { visit(child, node); });
  }

  // The findings in source order, one per position.
  std::vector<Finding> take() {
    std::stable_sort(findings_.begin(), findings_.end(),
                     [](const Finding& a, const Finding& b) { return a.begin < b.begin; });
    auto same_place = [](const Finding& a, const Finding& b) { return a.begin == b.begin; };
    findings_.erase(std::unique(findings_.begin(), findings_.end(), same_place), findings_.end());
    return std::move(findings_);
  }

 private:
  std::string_view token_text(TSNode node) const {
    uint32_t begin = ts_node_start_byte(node);
    uint32_t end = ts_node_end_byte(node);
    if (begin >= text_.size()) return {};
    return text_.substr(begin, end - begin);
  }

  // A child of an ERROR node that is a whole construct holding errors of its own.
  static bool has_errors_of_its_own(TSNode child) {
    return !is_error_node(child) && ts_node_is_named(child) && !is_leaf(child) &&
           ts_node_has_error(child);
  }

  // The non-empty leaves under `node`, in source order (MISSING leaves are empty).
  void collect_leaves(TSNode node, std::vector<TSNode>& leaves) const {
    if (is_leaf(node)) {
      if (ts_node_end_byte(node) > ts_node_start_byte(node)) leaves.push_back(node);
      return;
    }
    for_each_child(node, [&](TSNode child) { collect_leaves(child, leaves); });
  }

  // True when only blanks or a comment follow `offset` on its line.
  bool at_end_of_line(uint32_t offset) const {
    while (offset < text_.size() && (text_[offset] == ' ' || text_[offset] == '\t')) ++offset;
    return offset >= text_.size() || text_[offset] == '\n' || text_[offset] == '\r' ||
           text_[offset] == '#';
  }

  Finding explain_error(TSNode error) const {
    std::vector<TSNode> leaves;
    for_each_child(error, [&](TSNode child) {
      if (!has_errors_of_its_own(child)) collect_leaves(child, leaves);
    });
    uint32_t start = ts_node_start_byte(error);
    if (leaves.empty()) {
      if (start >= text_.size()) return {start, start, "unexpected end of file"};
      return {start, ts_node_end_byte(error), "invalid syntax"};
    }

    std::vector<Finding> candidates;
    if (auto bracket = unbalanced_bracket(leaves)) candidates.push_back(std::move(*bracket));
    if (auto colon = missing_colon(error, leaves)) candidates.push_back(std::move(*colon));
    if (!candidates.empty()) {
      return *std::min_element(
          candidates.begin(), candidates.end(),
          [](const Finding& a, const Finding& b) { return a.begin < b.begin; });
    }

    // The tokens tree-sitter skipped are the ERROR node's direct leaves; whole subtrees under it
    // parsed fine and were only wrapped up during recovery.
    std::vector<TSNode> direct;
    for_each_child(error, [&](TSNode child) {
      if (is_leaf(child) && ts_node_end_byte(child) > ts_node_start_byte(child)) {
        direct.push_back(child);
      }
    });
    if (!direct.empty() && node_type(direct.front()) == "string_start") {
      TSNode quote = direct.front();
      return {ts_node_start_byte(quote), ts_node_end_byte(quote), "unterminated string literal"};
    }
    if (!direct.empty()) {
      TSNode last = direct.back();
      uint32_t last_end = ts_node_end_byte(last);
      if (!ts_node_is_named(last) && last_end == ts_node_end_byte(error) &&
          at_end_of_line(last_end)) {
        return {last_end, last_end,
                fmt::format("unexpected end of line after {}", quote_token(token_text(last)))};
      }
      TSNode first = direct.front();
      return {ts_node_start_byte(first), ts_node_end_byte(first),
              fmt::format("unexpected {}", quote_token(token_text(first)))};
    }
    TSNode first = leaves.front();
    return {ts_node_start_byte(first), ts_node_end_byte(first), "invalid syntax"};
  }

  std::optional<Finding> unbalanced_bracket(const std::vector<TSNode>& leaves) const {
    std::vector<TSNode> open;
    for (TSNode leaf : leaves) {
      if (ts_node_is_named(leaf)) continue;  // brackets are anonymous tokens
      std::string_view token = token_text(leaf);
      if (token.size() != 1) continue;
      char c = token[0];
      if (c == '(' || c == '[' || c == '{') {
        open.push_back(leaf);
      } else if (c == ')' || c == ']' || c == '}') {
        uint32_t begin = ts_node_start_byte(leaf);
        if (open.empty()) return Finding{begin, begin + 1, fmt::format("unmatched `{}`", c)};
        char opener = token_text(open.back())[0];
        if (closer_for(opener) != c) {
          return Finding{begin, begin + 1,
                         fmt::format("closing `{}` does not match `{}`", c, opener)};
        }
        open.pop_back();
      }
    }
    if (open.empty()) return std::nullopt;
    uint32_t begin = ts_node_start_byte(open.back());
    return Finding{begin, begin + 1, fmt::format("`{}` was never closed", token_text(open.back()))};
  }

  // `for i in range(n)` + newline: the header's line ends without `:`. The header's keyword is
  // the ERROR's first child, or comes right after its decorators (`@helion.kernel()` + `def`).
  std::optional<Finding> missing_colon(TSNode error, const std::vector<TSNode>& leaves) const {
    std::optional<TSNode> keyword;
    bool other_before_keyword = false;
    bool has_colon = false;
    for_each_child(error, [&](TSNode child) {
      if (!keyword) {
        if (is_leaf(child) && !ts_node_is_named(child) &&
            opens_compound_statement(token_text(child))) {
          keyword = child;
        } else if (node_type(child) != "decorator" && node_type(child) != "comment") {
          other_before_keyword = true;
        }
        return;
      }
      has_colon = has_colon || (is_leaf(child) && token_text(child) == ":");
    });
    if (!keyword || other_before_keyword || has_colon) return std::nullopt;
    uint32_t row = ts_node_start_point(*keyword).row;
    uint32_t header_end = ts_node_end_byte(*keyword);
    for (TSNode leaf : leaves) {
      if (ts_node_start_byte(leaf) < header_end) continue;
      if (ts_node_start_point(leaf).row != row) break;
      header_end = ts_node_end_byte(leaf);
    }
    return Finding{header_end, header_end, "expected `:`"};
  }

  // A compound statement whose header runs past the end of its line: tree-sitter-python
  // reads `def k(x) -> T` + newline + `out = f(x)` + ... up to the next `:` as one header (its
  // scanner emits no line break where none is expected), but Python ends the header at the
  // first line break outside brackets. Reported where Python reports it: "expected `:`" at the
  // end of that first line.
  std::optional<Finding> header_without_colon(TSNode statement) const {
    if (!opens_compound_statement(first_keyword(statement))) return std::nullopt;
    std::vector<TSNode> header;  // the leaves before the header's `:`
    bool at_colon = false;
    for_each_child(statement, [&](TSNode child) {
      if (at_colon) return;
      if (is_leaf(child) && token_text(child) == ":") {
        at_colon = true;
        return;
      }
      collect_leaves(child, header);
    });
    if (!at_colon || header.empty()) return std::nullopt;
    int depth = 0;
    for (size_t i = 0; i + 1 < header.size(); ++i) {
      std::string_view token = token_text(header[i]);
      if (!ts_node_is_named(header[i]) && token.size() == 1) {
        if (token == "(" || token == "[" || token == "{") ++depth;
        if ((token == ")" || token == "]" || token == "}") && depth > 0) --depth;
      }
      uint32_t end = ts_node_end_byte(header[i]);
      uint32_t next = ts_node_start_byte(header[i + 1]);
      std::string_view between = text_.substr(end, next - end);
      bool line_break = between.find('\n') != std::string_view::npos;
      bool continued = between.find("\\\n") != std::string_view::npos ||
                       between.find("\\\r\n") != std::string_view::npos;
      if (depth == 0 && line_break && !continued) return Finding{end, end, "expected `:`"};
    }
    return std::nullopt;
  }

  // The text of the first token of a named node that starts with a keyword ("def", "for").
  std::string_view first_keyword(TSNode node) const {
    if (!ts_node_is_named(node) || is_leaf(node)) return {};
    TSNode first = ts_node_child(node, 0);
    return is_leaf(first) && !ts_node_is_named(first) ? token_text(first) : std::string_view();
  }

  // A block needs at least one statement, and the statements of one block start in one column.
  // tree-sitter-python accepts both mistakes without an ERROR node.
  void check_statements(TSNode container, TSNode parent) {
    if (ts_node_has_error(container)) return;  // reported through the ERROR nodes instead
    std::vector<TSNode> statements;
    for_each_child(container, [&](TSNode child) {
      if (ts_node_is_named(child) && node_type(child) != "comment") statements.push_back(child);
    });
    if (statements.empty()) {
      if (node_type(container) == "block") report_empty_block(container, parent);
      return;
    }
    std::optional<uint32_t> column;
    for (TSNode statement : statements) {
      uint32_t begin = ts_node_start_byte(statement);
      if (!starts_line(begin)) continue;  // `if x: y = 1` or `a = 1; b = 2`
      uint32_t at = ts_node_start_point(statement).column;
      if (!column) {
        column = at;
        continue;
      }
      if (at != *column) {
        findings_.push_back({begin, first_token_end(statement),
                             at > *column ? "unexpected indent"
                                          : "unindent does not match any outer indentation "
                                            "level"});
        return;
      }
    }
  }

  // Python's message, pointing at what came instead of the block (or after the header's `:` at
  // the end of the file).
  void report_empty_block(TSNode block, TSNode header) {
    constexpr std::string_view kBlank = " \t\r\n";
    uint32_t at = ts_node_start_byte(block);
    while (at < text_.size() && kBlank.find(text_[at]) != std::string_view::npos) ++at;
    uint32_t end = at;
    while (end < text_.size() && kBlank.find(text_[end]) == std::string_view::npos) ++end;
    if (at >= text_.size()) at = end = ts_node_start_byte(block);
    std::string message = "expected an indented block";
    if (!ts_node_is_null(header)) {
      TSNode keyword = header;
      while (!is_leaf(keyword)) keyword = ts_node_child(keyword, 0);
      message += fmt::format(" after {} on line {}", quote_token(token_text(keyword)),
                             ts_node_start_point(keyword).row + 1);
    }
    findings_.push_back({at, end, std::move(message)});
  }

  bool starts_line(uint32_t offset) const {
    while (offset > 0 && (text_[offset - 1] == ' ' || text_[offset - 1] == '\t')) --offset;
    return offset == 0 || text_[offset - 1] == '\n';
  }

  uint32_t first_token_end(TSNode node) const {
    while (!is_leaf(node)) node = ts_node_child(node, 0);
    return ts_node_end_byte(node);
  }

  std::string_view text_;
  std::vector<Finding> findings_;
};

}  // namespace

bool report_syntax_errors(const SyntaxTree& tree, DiagnosticEngine& diags) {
  if (!check_syntax_limits(tree, diags)) return false;
  SyntaxErrorFinder finder(tree.file());
  finder.visit(ts_tree_root_node(tree.raw()), TSNode{});
  std::vector<Finding> findings = finder.take();
  if (!findings.empty()) {
    // The parser's errors there are only the consequence of the indentation it lost.
    if (auto deep = find_too_deep_indentation(tree)) {
      diags.error(DiagnosticKind::kLimitExceeded, tree.file().range(deep->first, deep->first),
                  std::move(deep->second));
      return false;
    }
  }
  for (Finding& finding : findings) {
    diags.error(DiagnosticKind::kSyntaxError, tree.file().range(finding.begin, finding.end),
                std::move(finding.message));
  }
  return findings.empty();
}

}  // namespace helionc::parse
