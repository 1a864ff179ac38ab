#include "frontend/assert_message.h"

#include <fmt/format.h>

#include <cctype>
#include <string>
#include <string_view>

#include "support/quote.h"

namespace helionc::frontend {
namespace {

using parse::SyntaxNode;

struct LiteralParts {
  std::string prefix;  // `f`, `rb`, ... (may be empty)
  std::string quote;   // `"`, `'''`, ...
  std::string_view body;
};

LiteralParts split_literal(std::string_view spelling) {
  LiteralParts parts;
  const size_t quote = spelling.find_first_of("'\"");
  parts.prefix = std::string(spelling.substr(0, quote));
  const bool triple = spelling.substr(quote, 3) == std::string(3, spelling[quote]);
  parts.quote = std::string(triple ? 3 : 1, spelling[quote]);
  const size_t open = quote + parts.quote.size();
  parts.body = spelling.substr(open, spelling.size() - open - parts.quote.size());
  return parts;
}

bool has_letter(std::string_view prefix, char lower) {
  return prefix.find(lower) != std::string_view::npos ||
         prefix.find(static_cast<char>(lower - 'a' + 'A')) != std::string_view::npos;
}

// Python's one-character escapes and the bytes they stand for.
constexpr std::string_view kEscapeLetters = "abfnrtv\\'\"";
constexpr std::string_view kEscapeValues = "\a\b\f\n\r\t\v\\'\"";

bool is_octal(char c) { return c >= '0' && c <= '7'; }
bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// The value of a bytes literal's body (escapes decoded unless raw).
std::string bytes_value(std::string_view body, bool raw) {
  if (raw) return std::string(body);
  std::string value;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\' || i + 1 == body.size()) {
      value += body[i];
      continue;
    }
    const char c = body[++i];
    if (const size_t letter = kEscapeLetters.find(c); letter != std::string_view::npos) {
      value += kEscapeValues[letter];
    } else if (c == '\r') {
      if (i + 1 < body.size() && body[i + 1] == '\n') ++i;  // a CRLF line continuation
    } else if (c == '\n') {
      // a line continuation: nothing
    } else if (c == 'x' && i + 2 < body.size() && is_hex(body[i + 1]) && is_hex(body[i + 2])) {
      value += static_cast<char>(std::stoi(std::string(body.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else if (is_octal(c)) {
      size_t length = 1;
      while (length < 3 && i + length < body.size() && is_octal(body[i + length])) ++length;
      value += static_cast<char>(std::stoi(std::string(body.substr(i, length)), nullptr, 8));
      i += length - 1;
    } else {
      value += '\\';  // an unknown escape keeps its backslash, as in Python
      value += c;
    }
  }
  return value;
}

// Python's repr() of a bytes value: b'...' (b"..." when it holds a `'` and no `"`).
std::string bytes_repr(std::string_view value) {
  const bool double_quote =
      value.find('\'') != std::string_view::npos && value.find('"') == std::string_view::npos;
  const char quote = double_quote ? '"' : '\'';
  std::string repr = fmt::format("b{}", quote);
  for (char ch : value) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '\\' || ch == quote) {
      repr += '\\';
      repr += ch;
    } else if (ch == '\t') {
      repr += "\\t";
    } else if (ch == '\n') {
      repr += "\\n";
    } else if (ch == '\r') {
      repr += "\\r";
    } else if (c < 0x20 || c >= 0x7f) {
      repr += fmt::format("\\x{:02x}", c);
    } else {
      repr += ch;
    }
  }
  return repr + quote;
}

// An f-string's text as the body of a str.format template (or, without fields, of the plain
// literal): its text as written, each field as `{conversion:spec}` with its expression appended
// to `fields`. Without fields, `{{`/`}}` are halved, as Python prints them.
std::optional<std::string> f_string_body(const SyntaxNode& message,
                                         std::vector<SyntaxNode>& fields) {
  bool has_fields = false;
  for (const SyntaxNode& child : message.children()) has_fields |= child.type() == "interpolation";
  std::string body;
  for (const SyntaxNode& child : message.children()) {
    const std::string_view type = child.type();
    if (type == "string_start" || type == "string_end") continue;
    if (type == "interpolation") {
      fields.push_back(child.child_by_field("expression"));
      std::string field = "{";
      for (const SyntaxNode& part : child.children()) {
        const std::string_view kind = part.type();
        if (kind == "=") return std::nullopt;
        if (kind == "type_conversion") field += part.text();
        if (kind == "format_specifier") {
          // A field nested in the spec (`{x:{width}}`) is str.format's too: `{:{}}`, its value
          // an argument after the field's own, as str.format numbers them.
          const std::string_view file = child.tree()->file().text();
          uint32_t at = part.start_byte();
          for (const SyntaxNode& nested : part.named_children()) {
            if (nested.type() != "format_expression") continue;
            const SyntaxNode value = nested.child_by_field("expression");
            if (!value || nested.named_children().size() != 1) return std::nullopt;
            field += file.substr(at, nested.start_byte() - at);
            field += "{}";
            fields.push_back(value);
            at = nested.end_byte();
          }
          field += file.substr(at, part.end_byte() - at);
        }
      }
      body += field + "}";
      continue;
    }
    // string_content: its text, with each escape_interpolation halved when it stays a literal.
    uint32_t at = child.start_byte();
    for (const SyntaxNode& piece : child.children()) {
      if (piece.type() != "escape_interpolation" || has_fields) continue;
      body += child.tree()->file().text().substr(at, piece.start_byte() - at);
      body += piece.text().front();
      at = piece.end_byte();
    }
    body += child.tree()->file().text().substr(at, child.end_byte() - at);
  }
  return body;
}

}  // namespace

std::optional<AssertMessage> assert_message(const SyntaxNode& message) {
  const std::string_view spelling = message.text();
  const LiteralParts parts = split_literal(spelling);
  if (has_letter(parts.prefix, 'b')) {
    return AssertMessage{
        double_quoted(bytes_repr(bytes_value(parts.body, has_letter(parts.prefix, 'r')))), {}};
  }
  if (!has_letter(parts.prefix, 'f')) return AssertMessage{std::string(spelling), {}};
  AssertMessage result;
  std::optional<std::string> body = f_string_body(message, result.fields);
  if (!body) return std::nullopt;
  std::string prefix = parts.prefix;
  std::erase_if(prefix, [](char c) { return c == 'f' || c == 'F'; });
  result.literal = prefix + parts.quote + *body + parts.quote;
  return result;
}

}  // namespace helionc::frontend
