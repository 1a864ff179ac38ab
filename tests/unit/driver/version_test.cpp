#include <catch2/catch.hpp>

#include <string>

#include "driver/version_text.h"

TEST_CASE("--version: version and revision, grammar, runtime, one a line") {
  const std::string text = helionc::driver::version_text();
  CHECK(text.rfind("helionc 0.", 0) == 0);
  CHECK(text.find(" (git ") != std::string::npos);
  CHECK(text.find("\ngrammar: tree-sitter-python 0.23.6\nruntime: tree-sitter library ") !=
        std::string::npos);
  CHECK(text.back() == '\n');
}
