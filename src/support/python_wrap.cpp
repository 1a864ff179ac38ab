#include "support/python_wrap.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace helionc {

namespace {

constexpr size_t kNone = std::string_view::npos;
// Deep enough for any line helionc prints; a bound so that a pathological line cannot recurse
// without end.
constexpr int kMaxNesting = 12;

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// One line's code as brackets and strings see it: the partner of each bracket, where a
// trailing comment starts, and whether the line is something this file understands (brackets
// balanced, strings closed on the line).
struct Scan {
  std::vector<size_t> partner;  // per character: its matching bracket, or kNone
  std::vector<int> depth;       // per character: brackets open before it
  std::vector<bool> in_string;  // per character: inside a string literal (see string_chars)
  size_t comment = kNone;
  bool ok = true;
};

// Per character: whether it lies inside a string literal, after its opening quote up to and
// including its closing one. Quotes are followed from the start of the line, comments
// included; one pass, since a test per character from the start was quadratic in the line.
std::vector<bool> string_chars(std::string_view code) {
  std::vector<bool> inside(code.size(), false);
  char quote = 0;
  for (size_t k = 0; k < code.size(); ++k) {
    inside[k] = quote != 0;
    if (quote != 0) {
      if (code[k] == '\\') {
        if (k + 1 < code.size()) inside[k + 1] = true;  // the escaped character
        ++k;
      } else if (code[k] == quote) {
        quote = 0;
      }
    } else if (code[k] == '\'' || code[k] == '"') {
      quote = code[k];
    }
  }
  return inside;
}

Scan scan(std::string_view code) {
  Scan result;
  result.in_string = string_chars(code);
  result.partner.assign(code.size(), kNone);
  result.depth.assign(code.size(), 0);
  std::vector<size_t> open;
  for (size_t i = 0; i < code.size(); ++i) {
    result.depth[i] = static_cast<int>(open.size());
    const char c = code[i];
    if (c == '#') {
      result.comment = i;
      break;
    }
    if (c == '\'' || c == '"') {
      size_t j = i + 1;
      while (j < code.size() && code[j] != c) j += code[j] == '\\' ? 2 : 1;
      if (j >= code.size()) {
        result.ok = false;  // a string continued on the next line: leave the line alone
        return result;
      }
      for (size_t k = i; k <= j; ++k) result.depth[k] = static_cast<int>(open.size());
      i = j;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      open.push_back(i);
    } else if (c == ')' || c == ']' || c == '}') {
      if (open.empty()) {
        result.ok = false;
        return result;
      }
      result.partner[i] = open.back();
      result.partner[open.back()] = i;
      open.pop_back();
      result.depth[i] = static_cast<int>(open.size());
    }
  }
  result.ok = result.ok && open.empty();
  return result;
}

// Whether `word` starts at `i` of `code` as a whole word at bracket depth 0.
bool word_at(std::string_view code, const Scan& s, size_t i, std::string_view word) {
  if (s.depth[i] != 0 || code.substr(i, word.size()) != word) return false;
  const bool before = i == 0 || !is_word_char(code[i - 1]);
  const bool after = i + word.size() >= code.size() || !is_word_char(code[i + word.size()]);
  return before && after;
}

// `text` without its leading and trailing spaces.
std::string_view trim(std::string_view text) {
  const size_t first = text.find_first_not_of(' ');
  if (first == kNone) return {};
  return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

// Positions at depth 0 and outside strings where `pred` holds.
template <typename Pred>
std::vector<size_t> top_level(std::string_view code, const Scan& s, Pred pred) {
  std::vector<size_t> hits;
  for (size_t i = 0; i < code.size(); ++i) {
    if (s.depth[i] == 0 && !s.in_string[i] && pred(i)) hits.push_back(i);
  }
  return hits;
}

// The items of a bracket's contents at its top-level commas (a lambda's parameters are not
// items); nullopt for a comprehension, whose `for` targets hold commas too.
std::optional<std::vector<std::string>> split_items(std::string_view body, bool& trailing_comma) {
  const Scan s = scan(body);
  if (!s.ok || s.comment != kNone) return std::nullopt;
  std::vector<std::string> items;
  size_t start = 0;
  bool in_lambda = false;
  char quote = 0;
  for (size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (quote != 0) {
      if (c == '\\') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      continue;
    }
    if (s.depth[i] != 0) continue;
    if (word_at(body, s, i, "for") || word_at(body, s, i, "async")) return std::nullopt;
    if (word_at(body, s, i, "lambda")) in_lambda = true;
    if (c == ':' && in_lambda) in_lambda = false;
    if (c == ',' && !in_lambda) {
      items.emplace_back(body.substr(start, i - start));
      start = i + 1;
    }
  }
  std::string last(body.substr(start));
  trailing_comma = last.find_first_not_of(' ') == std::string::npos && !items.empty();
  if (!trailing_comma) items.push_back(std::move(last));
  for (std::string& item : items) item = std::string(trim(item));
  return items;
}

class Wrapper {
 public:
  explicit Wrapper(size_t width) : width_(width) {}

  // Appends the lines of `code` (no leading spaces, no comment) at `indent`, followed by
  // `trailing` (a comma for an item) and `comment` on its last line.
  void layout(const std::string& indent, std::string_view code, std::string_view trailing,
              std::string_view comment, bool in_brackets, int nesting) {
    const std::string whole =
        indent + std::string(code) + std::string(trailing) + std::string(comment);
    if (whole.size() <= width_ || nesting >= kMaxNesting) {
      out_.push_back(whole);
      return;
    }
    const Scan s = scan(code);
    if (!s.ok || s.comment != kNone) {
      out_.push_back(whole);
      return;
    }
    if (in_brackets && split_conditional(indent, code, s, trailing, comment, nesting)) return;
    if (in_brackets && split_string(indent, code, trailing, comment)) return;
    if (in_brackets && split_keyword(indent, code, s, trailing, comment, nesting)) return;
    if (in_brackets && split_operators(indent, code, s, trailing, comment, nesting)) return;
    if (!in_brackets && split_assignment(indent, code, s, comment, nesting)) return;
    if (split_brackets(indent, code, s, trailing, comment, in_brackets, nesting)) return;
    out_.push_back(whole);
  }

  std::vector<std::string> take() { return std::move(out_); }

 private:
  // `a if c else b` inside brackets: one part per line (`if c`, `else b`).
  bool split_conditional(const std::string& indent, std::string_view code, const Scan& s,
                         std::string_view trailing, std::string_view comment, int nesting) {
    const std::vector<size_t> ifs =
        top_level(code, s, [&](size_t i) { return word_at(code, s, i, "if"); });
    const std::vector<size_t> elses =
        top_level(code, s, [&](size_t i) { return word_at(code, s, i, "else"); });
    if (ifs.size() != 1 || elses.size() != 1 || elses[0] < ifs[0] || ifs[0] == 0) return false;
    if (!top_level(code, s, [&](size_t i) { return word_at(code, s, i, "lambda"); }).empty()) {
      return false;
    }
    layout(indent, trim(code.substr(0, ifs[0])), "", "", true, nesting + 1);
    layout(indent, trim(code.substr(ifs[0], elses[0] - ifs[0])), "", "", true, nesting + 1);
    layout(indent, trim(code.substr(elses[0])), trailing, comment, true, nesting + 1);
    return true;
  }

  // A lone plain string literal inside brackets: adjacent literals, which Python joins, each
  // ending at a space that fits the width.
  bool split_string(const std::string& indent, std::string_view code, std::string_view trailing,
                    std::string_view comment) {
    if (code.size() < 2 || (code[0] != '"' && code[0] != '\'') || code.back() != code[0]) {
      return false;
    }
    const char quote = code[0];
    for (size_t i = 1; i + 1 < code.size(); ++i) {
      if (code[i] == '\\')
        ++i;
      else if (code[i] == quote)
        return false;  // several literals already
    }
    std::string_view rest = code.substr(1, code.size() - 2);
    std::vector<std::string> pieces;
    const size_t room = width_ - std::min(width_ - 20, indent.size() + 3);
    while (rest.size() > room) {
      size_t cut = rest.rfind(' ', room);
      if (cut == kNone || cut == 0) break;
      // Never between a backslash and the character it escapes.
      size_t backslashes = 0;
      while (backslashes < cut && rest[cut - 1 - backslashes] == '\\') ++backslashes;
      if (backslashes % 2 == 1) break;
      pieces.emplace_back(rest.substr(0, cut + 1));
      rest.remove_prefix(cut + 1);
    }
    if (pieces.empty()) return false;
    pieces.emplace_back(rest);
    for (size_t i = 0; i < pieces.size(); ++i) {
      std::string line = indent + quote + pieces[i] + quote;
      if (i + 1 == pieces.size()) line += std::string(trailing) + std::string(comment);
      out_.push_back(std::move(line));
    }
    return true;
  }

  // `name=value` (a keyword argument) whose value is no single bracket pair: `name=(`, the
  // value, `)`. Parentheses around an expression change nothing.
  bool split_keyword(const std::string& indent, std::string_view code, const Scan& s,
                     std::string_view trailing, std::string_view comment, int nesting) {
    size_t name_end = 0;
    while (name_end < code.size() && is_word_char(code[name_end])) ++name_end;
    if (name_end == 0 || name_end + 1 >= code.size() || code[name_end] != '=' ||
        code[name_end + 1] == '=') {
      return false;
    }
    const std::string_view value = code.substr(name_end + 1);
    const Scan vs = scan(value);
    if (!vs.ok) return false;
    const bool one_pair = vs.partner[value.size() - 1] != kNone &&
                          vs.partner[value.size() - 1] == first_open(vs, value.size());
    if (one_pair &&
        bracket_split_fits(indent + std::string(code.substr(0, name_end + 1)), value, vs)) {
      return false;
    }
    out_.push_back(indent + std::string(code.substr(0, name_end + 1)) + "(");
    layout(indent + "    ", value, "", "", true, nesting + 1);
    out_.push_back(indent + ")" + std::string(trailing) + std::string(comment));
    return true;
  }

  // A chain of binary operators inside brackets, broken before each operator of the loosest
  // kind present (`or`, `and`, comparisons, `|`, `&`, `+`/`-`), as black does.
  bool split_operators(const std::string& indent, std::string_view code, const Scan& s,
                       std::string_view trailing, std::string_view comment, int nesting) {
    if (!top_level(code, s, [&](size_t i) { return word_at(code, s, i, "lambda"); }).empty()) {
      return false;
    }
    static const std::vector<std::vector<std::string_view>> kLoosestFirst = {
        {" or "},
        {" and "},
        {" < ", " <= ", " > ", " >= ", " == ", " != ", " in ", " not in ", " is "},
        {" | "},
        {" & "},
        {" + ", " - "},
        {" * ", " / ", " // ", " % ", " @ "},
    };
    for (const std::vector<std::string_view>& operators : kLoosestFirst) {
      std::vector<size_t> cuts = top_level(code, s, [&](size_t i) {
        for (std::string_view op : operators) {
          if (code.substr(i, op.size()) == op) return true;
        }
        return false;
      });
      if (cuts.empty()) continue;
      size_t start = 0;
      for (size_t cut : cuts) {
        layout(indent, trim(code.substr(start, cut - start)), "", "", true, nesting + 1);
        start = cut + 1;  // the next line starts with the operator
      }
      layout(indent, trim(code.substr(start)), trailing, comment, true, nesting + 1);
      return true;
    }
    return false;
  }

  static size_t first_open(const Scan& s, size_t size) {
    for (size_t i = 0; i < size; ++i) {
      if (s.depth[i] == 0 && s.partner[i] != kNone && s.partner[i] > i) return i;
    }
    return kNone;
  }

  // `target = value` whose value would not break well in its own brackets: `target = (`, the
  // value, `)`.
  bool split_assignment(const std::string& indent, std::string_view code, const Scan& s,
                        std::string_view comment, int nesting) {
    const std::vector<size_t> assigns =
        top_level(code, s, [&](size_t i) { return code.substr(i, 3) == " = "; });
    if (assigns.size() != 1) return false;
    const std::string_view value = code.substr(assigns[0] + 3);
    const Scan vs = scan(value);
    const bool conditional =
        !top_level(value, vs, [&](size_t i) { return word_at(value, vs, i, "if"); }).empty();
    const bool ends_in_bracket = !value.empty() && vs.partner[value.size() - 1] != kNone;
    const std::string prefix = indent + std::string(code.substr(0, assigns[0] + 3));
    if (!conditional && ends_in_bracket && bracket_split_fits(prefix, value, vs)) return false;
    out_.push_back(indent + std::string(code.substr(0, assigns[0])) + " = (");
    layout(indent + "    ", value, "", "", true, nesting + 1);
    out_.push_back(indent + ")" + std::string(comment));
    return true;
  }

  // Whether splitting `code` at its last bracket pair leaves a first line that fits.
  bool bracket_split_fits(const std::string& indent, std::string_view code, const Scan& s) const {
    const size_t close = code.size() - 1;
    const size_t open = s.partner[close];
    return open != kNone && s.depth[open] == 0 && indent.size() + open + 1 <= width_;
  }

  // Inside a bracket pair at depth 0 (the last one that ends the code, else the first one):
  // the text before it and the opening bracket, then one item per line, then the closing
  // bracket and what follows.
  bool split_brackets(const std::string& indent, std::string_view code, const Scan& s,
                      std::string_view trailing, std::string_view comment, bool in_brackets,
                      int nesting) {
    std::vector<size_t> candidates;
    // The pair that ends the code (a `def` line ends in `):`).
    size_t end = code.size() - 1;
    if (!in_brackets && code[end] == ':' && end > 0) --end;
    if (s.partner[end] != kNone && s.partner[end] < end) candidates.push_back(s.partner[end]);
    for (size_t i = 0; i < code.size(); ++i) {
      if (s.depth[i] == 0 && s.partner[i] != kNone && s.partner[i] > i) {
        candidates.push_back(i);
        break;
      }
    }
    for (size_t open : candidates) {
      if (indent.size() + open + 1 > width_) continue;
      const size_t close = s.partner[open];
      if (close == open + 1) continue;
      bool trailing_comma = false;
      auto items = split_items(code.substr(open + 1, close - open - 1), trailing_comma);
      if (!items || items->empty()) continue;
      // A trailing comma after a single item would turn `(x)` into a tuple and `a[i]` into
      // `a[(i,)]`; after a call's last argument, or in a display of several, it is harmless.
      const bool call =
          code[open] == '(' && open > 0 &&
          (is_word_char(code[open - 1]) || code[open - 1] == ')' || code[open - 1] == ']');
      const bool comma = items->size() > 1 || trailing_comma || call || code[open] == '{';
      out_.push_back(indent + std::string(code.substr(0, open + 1)));
      for (size_t i = 0; i < items->size(); ++i) {
        const bool last = i + 1 == items->size();
        layout(indent + "    ", (*items)[i], last && !comma ? "" : ",", "", true, nesting + 1);
      }
      out_.push_back(indent + std::string(code.substr(close)) + std::string(trailing) +
                     std::string(comment));
      return true;
    }
    return false;
  }

  size_t width_;
  std::vector<std::string> out_;
};

// The number of `"""` and `'''` on a line, as toggles of a triple-quoted string.
bool toggles_triple_quote(std::string_view line) {
  size_t count = 0;
  for (std::string_view quote : {std::string_view("\"\"\""), std::string_view("'''")}) {
    for (size_t at = line.find(quote); at != kNone; at = line.find(quote, at + 3)) ++count;
  }
  return count % 2 == 1;
}

// A comment line broken at spaces into comment lines of the same indentation.
void wrap_comment(std::string_view line, size_t first, size_t width, std::string& out) {
  const std::string lead = std::string(line.substr(0, first)) + "# ";
  std::string_view rest = line.substr(first + 1);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  const size_t room = width > lead.size() + 20 ? width - lead.size() : 20;
  while (rest.size() > room) {
    size_t cut = rest.rfind(' ', room);
    if (cut == kNone || cut == 0) cut = rest.find(' ');
    if (cut == kNone) break;
    out.append(lead).append(rest.substr(0, cut)).push_back('\n');
    rest.remove_prefix(cut + 1);
  }
  out.append(lead).append(rest).push_back('\n');
}

// The brackets a line leaves open (negative: closes), strings and comments skipped.
int bracket_balance(std::string_view line) {
  int balance = 0;
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote != 0) {
      if (c == '\\') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '#') {
      break;
    } else if (c == '(' || c == '[' || c == '{') {
      ++balance;
    } else if (c == ')' || c == ']' || c == '}') {
      --balance;
    }
  }
  return balance;
}

}  // namespace

std::string wrap_python_lines(std::string_view text, size_t width) {
  std::string out;
  bool in_triple_quote = false;
  int open_brackets = 0;  // left open by earlier lines: this line continues inside them
  while (!text.empty()) {
    const size_t newline = text.find('\n');
    const std::string_view line = text.substr(0, newline);
    text.remove_prefix(newline == kNone ? text.size() : newline + 1);
    const bool toggles = toggles_triple_quote(line);
    const size_t first = line.find_first_not_of(' ');
    if (!in_triple_quote && first != kNone && line[first] == '#' && line.size() > width) {
      wrap_comment(line, first, width, out);
      continue;
    }
    const bool plain =
        !in_triple_quote && !toggles && first != kNone && line[first] != '#' && line.back() != '\\';
    const bool in_brackets = open_brackets > 0;
    if (!in_triple_quote) open_brackets = std::max(0, open_brackets + bracket_balance(line));
    if (!plain || line.size() <= width) {
      out.append(line).push_back('\n');
      in_triple_quote = in_triple_quote != toggles;
      continue;
    }
    const std::string_view body = line.substr(first);
    const Scan s = scan(body);
    std::string_view code = body;
    std::string_view comment;
    if (s.comment != kNone) {
      code = body.substr(0, s.comment);
      comment = body.substr(s.comment);
      while (!code.empty() && code.back() == ' ') code.remove_suffix(1);
    }
    const std::string separator = comment.empty() ? "" : "  ";
    // An item of a bracket opened on an earlier line keeps its comma after the wrapped lines.
    std::string_view trailing;
    if (in_brackets && !code.empty() && code.back() == ',') {
      code.remove_suffix(1);
      trailing = ",";
    }
    Wrapper wrapper(width);
    wrapper.layout(std::string(line.substr(0, first)), code, trailing,
                   separator + std::string(comment), in_brackets, 0);
    for (const std::string& wrapped : wrapper.take()) out.append(wrapped).push_back('\n');
  }
  return out;
}

}  // namespace helionc
