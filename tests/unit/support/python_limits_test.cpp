#include <catch2/catch.hpp>

#include <string>

#include "support/python_limits.h"

using namespace helionc;

namespace {
std::string nested_blocks(int levels) {
  std::string text;
  for (int i = 0; i < levels; ++i) text += std::string(i, ' ') + "if True:\n";
  return text + std::string(levels, ' ') + "pass\n";
}
}  // namespace

// The figures are CPython 3.11's, checked with compile(): 200 brackets and 99 nested blocks
// compile, 201 and 100 do not.
TEST_CASE("CPython's bracket limit is checked outside strings and comments", "[python_limits]") {
  CHECK_FALSE(find_python_limit_problem("x = " + std::string(200, '(') + "1" +
                                        std::string(200, ')') + "\n"));
  const auto deep = find_python_limit_problem("a = 1\nx = " + std::string(201, '[') + "\n");
  REQUIRE(deep);
  CHECK(deep->line == 2);
  CHECK(deep->message.starts_with("too many nested parentheses"));
  // Brackets in strings and comments are text.
  CHECK_FALSE(find_python_limit_problem("s = \"" + std::string(300, '(') + "\"  # " +
                                        std::string(300, '[') + "\n"));
  CHECK_FALSE(find_python_limit_problem("s = '''\n" + std::string(300, '{') + "\n'''\n"));
}

TEST_CASE("CPython's indentation limit counts nested blocks", "[python_limits]") {
  CHECK_FALSE(find_python_limit_problem(nested_blocks(99)));
  const auto deep = find_python_limit_problem(nested_blocks(100));
  REQUIRE(deep);
  CHECK(deep->line == 101);
  CHECK(deep->message.starts_with("too many levels of indentation"));
  // Lines inside brackets are no blocks, however indented.
  CHECK_FALSE(find_python_limit_problem("x = (\n" + std::string(500, ' ') + "1)\n"));
}

TEST_CASE("CPython's static block limit counts loops and withs per function", "[python_limits]") {
  const auto nested = [](int levels, const std::string& header) {
    std::string text = "def f(x):\n";
    for (int i = 0; i < levels; ++i) text += std::string(i + 1, ' ') + header + "\n";
    return text + std::string(levels + 1, ' ') + "pass\n";
  };
  CHECK_FALSE(find_python_limit_problem(nested(20, "for i in x:")));
  CHECK_FALSE(find_python_limit_problem(nested(20, "async with x:")));
  const auto deep = find_python_limit_problem(nested(21, "while x:"));
  REQUIRE(deep);
  CHECK(deep->line == 23);
  CHECK(deep->message.starts_with("too many statically nested blocks"));
  // `if` opens no block, and a nested `def` starts its own count.
  CHECK_FALSE(find_python_limit_problem(nested(40, "if x:")));
  std::string inner = "def f(x):\n";
  int depth = 1;
  for (int i = 0; i < 15; ++i) inner += std::string(depth++, ' ') + "for i in x:\n";
  inner += std::string(depth++, ' ') + "def g(y):\n";
  for (int i = 0; i < 15; ++i) inner += std::string(depth++, ' ') + "with y:\n";
  CHECK_FALSE(find_python_limit_problem(inner + std::string(depth, ' ') + "pass\n"));
}
