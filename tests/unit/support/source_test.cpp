#include <catch2/catch.hpp>

#include "support/source.h"

using namespace helionc;

TEST_CASE("line_column maps offsets to 1-based lines and byte columns", "[source]") {
  SourceFile file("k.py", "ab\ncde\n\nf");
  CHECK(file.line_column(0).line == 1);
  CHECK(file.line_column(0).column == 1);
  CHECK(file.line_column(2).line == 1);  // the newline belongs to its line
  CHECK(file.line_column(2).column == 3);
  CHECK(file.line_column(3).line == 2);
  CHECK(file.line_column(3).column == 1);
  CHECK(file.line_column(5).column == 3);
  CHECK(file.line_column(7).line == 3);
  CHECK(file.line_column(8).line == 4);
  CHECK(file.line_column(8).column == 1);
  // Past the end: clamped to the end.
  CHECK(file.line_column(100).line == 4);
  CHECK(file.line_column(100).column == 2);
}

TEST_CASE("line_text strips the newline and a CRLF carriage return", "[source]") {
  SourceFile file("k.py", "first\r\nsecond\n\nlast");
  CHECK(file.line_text(1) == "first");
  CHECK(file.line_text(2) == "second");
  CHECK(file.line_text(3).empty());
  CHECK(file.line_text(4) == "last");
  CHECK(file.line_text(0).empty());
  CHECK(file.line_text(5).empty());
  CHECK(file.line_count() == 4);
  CHECK(SourceFile("a", "x\n").line_count() == 1);
  CHECK(SourceFile("a", "").line_count() == 0);
}

TEST_CASE("line_offset and offset_of invert line_column", "[source]") {
  SourceFile file("k.py", "ab\ncde\nf");
  CHECK(file.line_offset(1) == 0);
  CHECK(file.line_offset(2) == 3);
  CHECK(file.line_offset(3) == 7);
  CHECK(file.line_offset(9) == 8);
  CHECK(file.offset_of({2, 2}) == 4);
  CHECK(file.offset_of({2, 99}) == 6);  // clamped to the line's end
  for (uint32_t offset = 0; offset <= 8; ++offset) {
    CHECK(file.offset_of(file.line_column(offset)) == offset);
  }
}

TEST_CASE("text_of and merge", "[source]") {
  SourceFile file("k.py", "x = foo(y)\n");
  SourceFile other("o.py", "zzz");
  SourceRange foo = file.range(4, 7);
  CHECK(file.text_of(foo) == "foo");
  CHECK(file.text_of(file.range(8, 100)) == "y)\n");
  CHECK(file.text_of(other.range(0, 1)).empty());
  SourceRange call = foo.merge(file.range(8, 10));
  CHECK(call.begin == 4);
  CHECK(call.end == 10);
  CHECK(file.text_of(call) == "foo(y)");
  CHECK(SourceRange{}.merge(foo).begin == 4);
  CHECK(foo.merge(SourceRange{}).end == 7);
  CHECK_FALSE(SourceRange{}.merge(SourceRange{}).valid());
}
