// What CPython refuses and tree-sitter accepts, refused by the frontend at its position.
#include <catch2/catch.hpp>

#include "lowering_fixture.h"

using helionc::testing::first_error;
using helionc::testing::lower;

namespace {

std::string elementwise(const std::string& signature, const std::string& before = "") {
  return "@helion.kernel\n" + signature + ":\n" + before +
         "    out = torch.empty_like(x)\n"
         "    for tile in hl.tile(x.size()):\n"
         "        out[tile] = x[tile]\n"
         "    return out\n";
}

}  // namespace

TEST_CASE("a keyword used as a name is refused") {
  CHECK(first_error(elementwise("def if(x: torch.Tensor)")) ==
        "k.py:6:5: error: `if` is a Python keyword and cannot be a name");
}

TEST_CASE("a parameter given twice is refused at the second") {
  auto result = lower(elementwise("def f(x: torch.Tensor, x: torch.Tensor)"));
  const std::string text = result->errors();
  CHECK(text.find("k.py:6:24: error: duplicate parameter `x`") == 0);
  CHECK(text.find("k.py:6:7: note: the first one is here") != std::string::npos);
}

TEST_CASE("a parameter without a default after one with a default is refused") {
  CHECK(first_error(elementwise("def f(s: float = 1.0, x: torch.Tensor)")) ==
        "k.py:6:23: error: parameter `x` without a default follows one with a default");
}

TEST_CASE("bytes CPython refuses are reported where they are") {
  CHECK(first_error(elementwise("def f(x: torch.Tensor)", "    assert x.size(0) > 0, 'a\xff'\n")) ==
        "k.py:7:29: error: byte 0xff is not UTF-8; Python reads source files as UTF-8");
  CHECK(first_error(elementwise("def f(x: torch.Tensor)", "    assert x.size(0) > 0, 'a\r'\n")) ==
        "k.py:7:29: error: a carriage return inside a string literal ends the line for Python; "
        "write `\\r`");
}

TEST_CASE("non-ASCII identifiers are refused") {
  CHECK(first_error(elementwise("def f(x: torch.Tensor, \xef\xbd\x89: float = 1.0)")) ==
        "k.py:6:24: error: non-ASCII identifier `\xef\xbd\x89` is not supported yet (Python "
        "reads identifiers after NFKC normalisation, helionc does not); use an ASCII name");
}
