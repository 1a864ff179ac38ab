// wrap_python_lines: long generated lines broken as a person would, never changing the program.
#include <catch2/catch.hpp>

#include <algorithm>

#include "support/python_wrap.h"

using helionc::wrap_python_lines;

namespace {
// Wraps at a small width so the cases stay short.
std::string wrap(const std::string& text, size_t width = 40) {
  return wrap_python_lines(text, width);
}
}  // namespace

TEST_CASE("short lines, comments-only text and docstrings are kept", "[python_wrap]") {
  const std::string text = "x = f(a, b)\n\n    y = 1  # note\n";
  CHECK(wrap(text) == text);
  const std::string doc =
      "def f():\n    \"\"\"A docstring line that is much longer than forty characters.\n"
      "    and a second line that is also far longer than the width.\n    \"\"\"\n";
  CHECK(wrap(doc) == doc);
}

TEST_CASE("a call is broken inside its last bracket pair, one argument a line", "[python_wrap]") {
  CHECK(wrap("result = compute(first_argument, second_argument)  # k.py:3\n") ==
        "result = compute(\n"
        "    first_argument,\n"
        "    second_argument,\n"
        ")  # k.py:3\n");
  // A single argument keeps a harmless trailing comma in a call...
  CHECK(wrap("result = compute_something(first_argument_is_long)\n") ==
        "result = compute_something(\n    first_argument_is_long,\n)\n");
  // ...but never in a subscript or a grouping, where it would make a tuple.
  CHECK(wrap("value = some_long_array_name[an_index_expression]\n") ==
        "value = some_long_array_name[\n    an_index_expression\n]\n");
}

TEST_CASE("keyword values, operator chains and conditionals break at their operators",
          "[python_wrap]") {
  CHECK(wrap("f(\n    nbytes=first_term * 2 + second_term * 4 + third,\n)\n") ==
        "f(\n"
        "    nbytes=(\n"
        "        first_term * 2\n"
        "        + second_term * 4\n"
        "        + third\n"
        "    ),\n"
        ")\n");
  CHECK(wrap("index = start_value + iota_of_shape if is_partial else None\n") ==
        "index = (\n"
        "    start_value + iota_of_shape\n"
        "    if is_partial\n"
        "    else None\n"
        ")\n");
}

TEST_CASE("lambdas and comprehensions are not split at their commas", "[python_wrap]") {
  CHECK(wrap("spec = BlockSpec(shape, index_map=lambda i, j: (i, j))\n", 50) ==
        "spec = BlockSpec(\n"
        "    shape,\n"
        "    index_map=lambda i, j: (i, j),\n"
        ")\n");
  const std::string comprehension = "pairs = [(a, b) for a, b in zip(first_list, second_list)]\n";
  CHECK(wrap(comprehension) == comprehension);
}

TEST_CASE("long string literals and comments are broken at spaces", "[python_wrap]") {
  CHECK(wrap("raise AssertionError(\"the first words and then the last words\")\n") ==
        "raise AssertionError(\n"
        "    \"the first words and then the last \"\n"
        "    \"words\",\n"
        ")\n");
  CHECK(wrap("    # one two three four five six seven eight nine ten eleven\n") ==
        "    # one two three four five six seven\n"
        "    # eight nine ten eleven\n");
}

TEST_CASE("wrapping twice changes nothing more", "[python_wrap]") {
  const std::string text =
      "acc = acc + dot(where(index < k, x_ref[...], 0) if partial else x_ref[...], y, dims)\n";
  const std::string once = wrap(text);
  CHECK(once != text);
  CHECK(wrap(once) == once);
}

TEST_CASE("operators inside string literals, escaped quotes included, are not break points",
          "[python_wrap]") {
  CHECK(wrap("total = first_value + call(\"a + \\\" + b\") + second_value\n") ==
        "total = (\n"
        "    first_value\n"
        "    + call(\"a + \\\" + b\")\n"
        "    + second_value\n"
        ")\n");
}

TEST_CASE("a line of 100,000 terms is wrapped (once quadratic in the line's length)",
          "[python_wrap]") {
  std::string line = "total = f(first";
  for (int i = 0; i < 100000; ++i) line += " + \"s\"";
  line += ")\n";
  const std::string wrapped = wrap(line, 100);
  CHECK(std::count(wrapped.begin(), wrapped.end(), '\n') > 100000);
}
