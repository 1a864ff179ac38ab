#include "support/utf8.h"

namespace helionc {

Utf8Char decode_utf8(std::string_view text, size_t at) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  if (lead < 0x80) return {lead, 1, true};
  size_t length = 0;
  char32_t code_point = 0;
  char32_t smallest = 0;  // below it the sequence is overlong
  if ((lead & 0xE0) == 0xC0) {
    length = 2, code_point = lead & 0x1F, smallest = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, code_point = lead & 0x0F, smallest = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, code_point = lead & 0x07, smallest = 0x10000;
  } else {
    return {};  // a continuation byte or 0xF8..0xFF where a character should start
  }
  if (at + length > text.size()) return {};
  for (size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return {};
    code_point = (code_point << 6) | (byte(at + i) & 0x3F);
  }
  if (code_point < smallest || code_point > 0x10FFFF ||
      (code_point >= 0xD800 && code_point <= 0xDFFF)) {
    return {};
  }
  return {code_point, length, true};
}

std::optional<size_t> first_invalid_utf8(std::string_view text) {
  for (size_t at = 0; at < text.size();) {
    const Utf8Char c = decode_utf8(text, at);
    if (!c.valid) return at;
    at += c.length;
  }
  return std::nullopt;
}

bool is_unsafe_char(char32_t code_point) {
  if (code_point == '\t') return false;
  return code_point < 0x20 || (code_point >= 0x7F && code_point <= 0x9F) || code_point == 0x2028 ||
         code_point == 0x2029;
}

}  // namespace helionc
