// Text from outside the compiler (source lines, paths, names, messages) made safe for the
// place it is written to. Every such text reaches a generated module or a terminal through one
// of these, so a carriage return, another line break Python recognises (\x0b \x0c \x1c-\x1e
// \x85 \u2028 \u2029), a NUL, an escape sequence or invalid UTF-8 cannot end a comment, break
// a string, or drive the terminal (support/utf8.h says which characters count).
//
// - double_quoted: a double-quoted string literal with C-style escapes (\" \\ \n \t \r, \xNN
//   and \uNNNN for other unsafe characters), which Python and YAML both read back as the same
//   string; a byte that is not UTF-8 is written as the four characters `\xNN` (a Python str
//   cannot hold it). (JSON has its own rules: support/json.h.)
// - one_line_text: the text with every unsafe character and invalid byte written as a visible
//   escape (`\r`, `\n`, `\x1b`, `\u2028`), for a Python comment or a terminal line.
#pragma once

#include <string>
#include <string_view>

namespace helionc {

std::string double_quoted(std::string_view text);

std::string one_line_text(std::string_view text);

}  // namespace helionc
