#include <catch2/catch.hpp>

#include "support/python_writer.h"

using namespace helionc;

TEST_CASE("blocks indent by four and dedent when they end", "[python_writer]") {
  PythonWriter w;
  w.line("import jax");
  w.blank();
  {
    auto f = w.block("def kernel(x_ref, o_ref):");
    w.comment("samples/add.py:12");
    {
      auto loop = w.block("for i in range(4):");
      w.linef("o_ref[{}] = x_ref[{}] + {}", "i", "i", 1);
      CHECK(w.indent_level() == 2);
    }
    w.line("return None");
  }
  CHECK(w.indent_level() == 0);
  w.line("x = {'a': 1}");  // braces are fine in line()
  CHECK(w.str() ==
        "import jax\n"
        "\n"
        "def kernel(x_ref, o_ref):\n"
        "    # samples/add.py:12\n"
        "    for i in range(4):\n"
        "        o_ref[i] = x_ref[i] + 1\n"
        "    return None\n"
        "x = {'a': 1}\n");
}

TEST_CASE("no trailing whitespace and at most two blank lines", "[python_writer]") {
  PythonWriter w;
  w.blank();  // nothing before it: dropped
  w.line("a = 1   ");
  w.blank();
  w.blank();
  w.blank();
  w.blank();
  {
    auto b = w.block("if a:");
    w.line("   ");  // whitespace only: an empty line, not an indented one
    w.line("b = 2");
  }
  w.comment("two\n\nlines ");
  w.blank();
  w.blank();  // trailing blanks at the end are dropped
  CHECK(w.str() ==
        "a = 1\n"
        "\n"
        "\n"
        "if a:\n"
        "\n"
        "    b = 2\n"
        "# two\n"
        "#\n"
        "# lines\n");
}

TEST_CASE("multi-line text keeps its relative indentation", "[python_writer]") {
  PythonWriter w;
  auto b = w.block("def f():");
  w.line("if x:\n    y()\n\nz()");
  CHECK(w.str() == "def f():\n    if x:\n        y()\n\n    z()\n");
}

TEST_CASE("an empty block gets pass; trailing blanks move out of it", "[python_writer]") {
  PythonWriter w;
  { auto b = w.block("class A:"); }
  {
    auto b = w.block("def g():");
    w.line("return 1");
    w.blank();
  }
  w.line("h = 2");
  CHECK(w.str() == "class A:\n    pass\ndef g():\n    return 1\n\nh = 2\n");
}

TEST_CASE("a block of comments alone gets pass", "[python_writer]") {
  PythonWriter w;
  {
    auto b = w.block("def f():");
    w.comment("host code only");
    {
      auto inner = w.block("if x:");
      w.line("# a comment line");
    }
  }
  CHECK(w.str() ==
        "def f():\n    # host code only\n    if x:\n        # a comment line\n        pass\n");
}

TEST_CASE("a block can be returned from a helper", "[python_writer]") {
  PythonWriter w;
  auto open_function = [&](std::string_view name) {
    return w.block(fmt::format("def {}():", name));
  };
  {
    PythonWriter::Block b = open_function("f");
    PythonWriter::Block moved = std::move(b);
    w.line("return 0");
  }
  w.line("done = True");
  CHECK(w.str() == "def f():\n    return 0\ndone = True\n");
}
