// Reading UTF-8 one character at a time, strictly (RFC 3629: no overlong forms, no surrogates,
// nothing above U+10FFFF), as CPython reads source files. Used wherever outside text is made
// safe for a generated module or a terminal (support/quote.h), and to refuse sources CPython
// would refuse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace helionc {

struct Utf8Char {
  char32_t code_point = 0;  // meaningful only when valid
  size_t length = 1;        // bytes taken: the whole sequence, or the one bad byte
  bool valid = false;
};

// The character starting at `text[at]` (`at < text.size()`).
Utf8Char decode_utf8(std::string_view text, size_t at);

// The byte offset of the first byte that is not part of valid UTF-8, if any.
std::optional<size_t> first_invalid_utf8(std::string_view text);

// A character Python or a terminal treats as a line break or a control: C0 controls other
// than tab, DEL, C1 controls (U+0085 NEL among them), U+2028 and U+2029. (Python's
// str.splitlines() breaks at \n \r \x0b \x0c \x1c-\x1e \x85 \u2028 \u2029; its tokenizer at
// \n and \r, and it refuses NUL.)
bool is_unsafe_char(char32_t code_point);

}  // namespace helionc
