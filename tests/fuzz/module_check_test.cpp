// The structural check must catch what it is there for, or the fuzz property proves nothing.
#include <catch2/catch.hpp>

#include "module_check.h"

using helionc::fuzz::check_module_structure;

TEST_CASE("a clean module passes") {
  CHECK(check_module_structure("import jax\n\n\ndef f(x):  # k.py:3\n    y = (x +\n         1)\n"
                               "    return {'a': [y]}  # (\n") == "");
  CHECK(check_module_structure("def f(\n    x,\n):\n    \"\"\"doc\n  (\"\"\"\n    pass\n") == "");
}

TEST_CASE("what would let text escape or keep the module from importing is caught") {
  CHECK(check_module_structure("# a\rprint(1)\n") == "byte 3: control character U+000D");
  CHECK(check_module_structure("# a\xe2\x80\xa8 b\n") == "byte 3: control character U+2028");
  CHECK(check_module_structure("x = 1  # \xff\n") == "byte 9 is not UTF-8");
  CHECK(check_module_structure("x = (1\n") == "the module ends inside brackets or a string");
  CHECK(check_module_structure("x = 1)\n") == "line 1: unbalanced `)`");
  CHECK(check_module_structure("x = 'a\n") == "line 1: a string that does not end on its line");
  CHECK(check_module_structure("def f():\nx = 1\n") ==
        "line 2: a block header without an indented body");
  CHECK(check_module_structure("def f():\n   x = 1\n") == "line 2: indentation of 3");
  CHECK(check_module_structure("x = 1") == "the module does not end in a newline");
}
