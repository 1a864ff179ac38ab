#include "module_check.h"

#include <fmt/format.h>

#include <vector>

#include "support/utf8.h"

namespace helionc::fuzz {

namespace {

// Tracks strings, comments and brackets across one logical line (brackets and triple-quoted
// strings continue it over physical lines).
class LogicalLine {
 public:
  // Consumes one physical line; "" or a problem.
  std::string feed(std::string_view line) {
    for (size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (!quote_.empty()) {
        if (c == '\\') {
          ++i;
        } else if (line.substr(i).starts_with(quote_)) {
          i += quote_.size() - 1;
          quote_.clear();
        }
        continue;
      }
      if (c == '#') break;
      if (c == '"' || c == '\'') {
        const std::string triple(3, c);
        quote_ = line.substr(i).starts_with(triple) ? triple : std::string(1, c);
        i += quote_.size() - 1;
      } else if (c == '(' || c == '[' || c == '{') {
        open_.push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
      } else if (c == ')' || c == ']' || c == '}') {
        if (open_.empty() || open_.back() != c) return fmt::format("unbalanced `{}`", c);
        open_.pop_back();
      }
    }
    if (quote_.size() == 1) return "a string that does not end on its line";
    return "";
  }
  bool continues() const { return !open_.empty() || quote_.size() == 3; }

 private:
  std::vector<char> open_;
  std::string quote_;  // the open string's quote, "" outside strings
};

std::string_view code_part(std::string_view line) {
  // Good enough for the header test: generated code puts no `#` inside strings of headers.
  const size_t hash = line.find("  #");
  std::string_view code = line.substr(0, hash);
  while (!code.empty() && code.back() == ' ') code.remove_suffix(1);
  return code;
}

}  // namespace

std::string check_module_structure(std::string_view module) {
  for (size_t at = 0; at < module.size();) {
    const Utf8Char c = decode_utf8(module, at);
    if (!c.valid) return fmt::format("byte {} is not UTF-8", at);
    if (c.code_point != '\n' && is_unsafe_char(c.code_point)) {
      return fmt::format("byte {}: control character U+{:04X}", at,
                         static_cast<unsigned>(c.code_point));
    }
    at += c.length;
  }
  if (!module.empty() && module.back() != '\n') return "the module does not end in a newline";

  LogicalLine logical;
  size_t line_number = 0;
  bool in_continuation = false;
  size_t header_indent = 0;
  size_t logical_indent = 0;  // of the first physical line of the current logical line
  bool after_header = false;  // the previous logical line opened a block
  while (!module.empty()) {
    const size_t newline = module.find('\n');
    const std::string_view line = module.substr(0, newline);
    module.remove_prefix(newline + 1);
    ++line_number;
    const size_t indent = line.find_first_not_of(' ');
    const bool blank = indent == std::string_view::npos;
    if (!in_continuation && !blank && line[indent] != '#') {
      if (indent % 4 != 0) return fmt::format("line {}: indentation of {}", line_number, indent);
      if (after_header && indent <= header_indent) {
        return fmt::format("line {}: a block header without an indented body", line_number);
      }
      after_header = false;
    }
    if (blank) continue;
    if (!in_continuation) logical_indent = indent;
    if (std::string problem = logical.feed(line); !problem.empty()) {
      return fmt::format("line {}: {}", line_number, problem);
    }
    in_continuation = logical.continues();
    if (!in_continuation && line[indent] != '#' && code_part(line).ends_with(":")) {
      after_header = true;
      header_indent = logical_indent;
    }
  }
  if (logical.continues()) return "the module ends inside brackets or a string";
  if (after_header) return "the module ends after a block header";
  return "";
}

}  // namespace helionc::fuzz
