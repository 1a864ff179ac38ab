// Outside text made safe for its place: string literals (double_quoted) and one-line text for
// comments and terminals (one_line_text), with every line break Python recognises.
#include <catch2/catch.hpp>

#include "support/quote.h"
#include "support/utf8.h"

namespace helionc {
namespace {

TEST_CASE("double_quoted escapes what would end or break a literal") {
  CHECK(double_quoted("a\"b\\c") == R"("a\"b\\c")");
  CHECK(double_quoted("a\rb\nc\td") == R"("a\rb\nc\td")");
  CHECK(double_quoted(std::string("\0\x0b\x0c\x1c\x1d\x1e\x1b\x7f", 8)) ==
        R"("\x00\x0b\x0c\x1c\x1d\x1e\x1b\x7f")");
  CHECK(double_quoted("\xc2\x85|\xe2\x80\xa8|\xe2\x80\xa9") == R"("\x85|\u2028|\u2029")");
  CHECK(double_quoted("caf\xc3\xa9 \xe2\x9c\x93") == "\"caf\xc3\xa9 \xe2\x9c\x93\"");
  // A byte that is not UTF-8 cannot be in a Python str: its escape is written as text.
  CHECK(double_quoted("a\xff"
                      "b\xc3") == R"("a\\xffb\\xc3")");
}

TEST_CASE("one_line_text leaves no line break, control character or bad byte") {
  CHECK(one_line_text("x = 1\r\nprint(2)") == R"(x = 1\r\nprint(2))");
  CHECK(one_line_text("tab\tkept") == "tab\tkept");
  CHECK(one_line_text("\x1b[31mred\x1b[0m") == R"(\x1b[31mred\x1b[0m)");
  CHECK(one_line_text("a\xe2\x80\xa8"
                      "b\xc2\x85"
                      "c\xff") == R"(a\u2028b\x85c\xff)");
  CHECK(one_line_text("\xe2\x80") == R"(\xe2\x80)");  // a truncated sequence, byte by byte
}

TEST_CASE("decode_utf8 is strict") {
  CHECK(first_invalid_utf8("plain \xc3\xa9 \xf0\x9f\x98\x80") == std::nullopt);
  CHECK(first_invalid_utf8("\xc0\xaf") == 0u);          // overlong '/'
  CHECK(first_invalid_utf8("ab\xed\xa0\x80") == 2u);    // a surrogate
  CHECK(first_invalid_utf8("\xf4\x90\x80\x80") == 0u);  // above U+10FFFF
  CHECK(first_invalid_utf8("x\x80") == 1u);             // a lone continuation byte
}

}  // namespace
}  // namespace helionc
