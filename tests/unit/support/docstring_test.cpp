#include "support/docstring.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace helionc;

TEST_CASE("docstrings are cleaned as inspect.cleandoc cleans them", "[docstring]") {
  CHECK(clean_docstring("Sum of x.") == "Sum of x.");
  // The first line's blanks go; the others lose their common indentation; blank ends go.
  CHECK(clean_docstring("  First.\n\n    Second,\n      indented.\n    ") ==
        "First.\n\nSecond,\n  indented.");
  CHECK(clean_docstring("\n    Starts on the second line.\n") == "Starts on the second line.");
  // A tab is 8 columns: 4 blanks and a tab after them are 8 columns, as 8 blanks are.
  CHECK(clean_docstring("A.\n        b\n    \tc") == "A.\nb\nc");
  CHECK(clean_docstring("").empty());
  CHECK(clean_docstring("\n  \n").empty());
}

TEST_CASE("docstring lines read back as the text in a triple-quoted literal", "[docstring]") {
  CHECK(docstring_lines("one\ntwo") == std::vector<std::string>{"one", "two"});
  // Quotes cannot close the literal, backslashes stay backslashes, and a carriage return or
  // a line separator Python would read as a line break is an escape.
  CHECK(docstring_lines(R"(a """ b \n)") == std::vector<std::string>{R"(a \"\"\" b \\n)"});
  CHECK(docstring_lines("x\ry") == std::vector<std::string>{R"(x\ry)"});
  CHECK(docstring_lines("x\u2028y") == std::vector<std::string>{R"(x\u2028y)"});
}
