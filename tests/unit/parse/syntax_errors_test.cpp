// report_syntax_errors: where each error is reported and what it says.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "parse/syntax_tree.h"

namespace helionc::parse {
namespace {

struct Reported {
  uint32_t line;
  uint32_t column;
  std::string message;
};

std::vector<Reported> errors_of(const std::string& text, bool* clean = nullptr) {
  SourceFile file("k.py", text);
  auto tree = SyntaxTree::parse(file);
  REQUIRE(tree != nullptr);
  DiagnosticEngine diags;
  bool ok = report_syntax_errors(*tree, diags);
  if (clean) *clean = ok;
  std::vector<Reported> result;
  for (const Diagnostic& d : diags.diagnostics()) {
    CHECK(d.kind == DiagnosticKind::kSyntaxError);
    CHECK(d.severity == Severity::kError);
    CHECK(d.range.file == &file);
    CHECK(d.range.begin <= d.range.end);
    LineColumn at = file.line_column(d.range.begin);
    result.push_back({at.line, at.column, d.message});
  }
  CHECK(ok == result.empty());
  return result;
}

TEST_CASE("a clean file reports nothing", "[parse][errors]") {
  bool clean = false;
  auto errors = errors_of(
      "import torch\n"
      "@helion.kernel\n"
      "def f(x, *, alpha: float = 1.0):\n"
      "    \"\"\"doc\"\"\"\n"
      "    out = torch.empty_like(x)\n"
      "    for t in hl.tile(x.size()):\n"
      "        out[t] = x[t] * alpha  # scale\n"
      "    if x.dim() > 1: y = 1; z = 2\n"
      "    return out\n"
      "\n"
      "def g():\n"
      "    pass\n",
      &clean);
  CHECK(clean);
  CHECK(errors.empty());
}

TEST_CASE("each syntax error is reported once, at its place", "[parse][errors]") {
  struct Case {
    const char* source;
    uint32_t line;
    uint32_t column;
    const char* message;
  };
  const Case cases[] = {
      {"x = = 1\n", 1, 5, "unexpected `=`"},
      {"print(1 2)\n", 1, 9, "unexpected `2`"},
      {"y = x.foo(1,, 2)\n", 1, 12, "unexpected `,`"},
      {"def f(:\n  pass\n", 1, 7, "expected `)`"},
      {"x = [i for i in]\n", 1, 16, "expected an identifier"},
      {"def f(x:\n    return x\n", 1, 6, "`(` was never closed"},
      {"x = foo(1, 2\ny = 3\n", 1, 8, "`(` was never closed"},
      {"a = [1, 2\n", 1, 5, "`[` was never closed"},
      {"x = 1)\n", 1, 6, "unmatched `)`"},
      {"y = x[1, 2)\n", 1, 11, "closing `)` does not match `[`"},
      {"for i in range(3)\n    pass\n", 1, 18, "expected `:`"},
      {"import torch\ndef f(x)\n    return x\n", 2, 9, "expected `:`"},
      {"def f(x):\n    return x +\n", 2, 15, "unexpected end of line after `+`"},
      {"x = \"abc\n", 1, 5, "unterminated string literal"},
      {"while True:\npass\n", 2, 1, "expected an indented block after `while` on line 1"},
      {"def f():\n", 1, 9, "expected an indented block after `def` on line 1"},
      {"x = 1\n  y = 2\n", 2, 3, "unexpected indent"},
      {"def f():\n    x = 1\n        y = 2\n", 3, 9, "unexpected indent"},
  };
  for (const Case& c : cases) {
    INFO(c.source);
    auto errors = errors_of(c.source);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].line == c.line);
    CHECK(errors[0].column == c.column);
    CHECK(errors[0].message == c.message);
  }
}

TEST_CASE("separate errors are all reported, in source order", "[parse][errors]") {
  auto errors = errors_of(
      "def f(x):\n"
      "    a = x +* 2\n"
      "    return a\n"
      "\n"
      "def g(y):\n"
      "    b = y[1, 2)\n"
      "    return b\n");
  REQUIRE(errors.size() == 2);
  CHECK(errors[0].line == 2);
  CHECK(errors[1].line == 6);
  CHECK(errors[1].message == "closing `)` does not match `[`");
}

TEST_CASE("an empty file and a file of comments are clean", "[parse][errors]") {
  CHECK(errors_of("").empty());
  CHECK(errors_of("# only a comment\n").empty());
}

}  // namespace
}  // namespace helionc::parse
