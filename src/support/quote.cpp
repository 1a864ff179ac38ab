#include "support/quote.h"

#include <fmt/format.h>

#include "support/utf8.h"

namespace helionc {

namespace {

// `\r`, `\xNN` or `\uNNNN`: an unsafe character as Python and YAML escapes spell it.
std::string escape_of(char32_t code_point) {
  switch (code_point) {
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    default:
      if (code_point < 0x100) return fmt::format("\\x{:02x}", static_cast<unsigned>(code_point));
      return fmt::format("\\u{:04x}", static_cast<unsigned>(code_point));
  }
}

std::string escape_of_byte(char byte) {
  return fmt::format("\\x{:02x}", static_cast<unsigned char>(byte));
}

}  // namespace

std::string double_quoted(std::string_view text) {
  std::string out = "\"";
  for (size_t at = 0; at < text.size();) {
    const Utf8Char c = decode_utf8(text, at);
    if (!c.valid) {
      out += "\\" + escape_of_byte(text[at]);  // `\\xff`: the escape as text
    } else if (c.code_point == '"' || c.code_point == '\\') {
      out += '\\';
      out += text[at];
    } else if (c.code_point == '\t' || is_unsafe_char(c.code_point)) {
      out += escape_of(c.code_point);
    } else {
      out.append(text.substr(at, c.length));
    }
    at += c.length;
  }
  return out + "\"";
}

std::string one_line_text(std::string_view text) {
  std::string out;
  for (size_t at = 0; at < text.size();) {
    const Utf8Char c = decode_utf8(text, at);
    if (!c.valid) {
      out += escape_of_byte(text[at]);
    } else if (is_unsafe_char(c.code_point)) {
      out += escape_of(c.code_point);
    } else {
      out.append(text.substr(at, c.length));
    }
    at += c.length;
  }
  return out;
}

}  // namespace helionc
