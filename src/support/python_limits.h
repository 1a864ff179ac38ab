// The limits of CPython's tokenizer and compiler that a generated module must stay within, checked
// on the module's text before it is written: helionc's input limits (support/limits.h) bound the
// source, but the printers add brackets (`jnp.abs(...)`, casts, index tuples) and blocks
// (`def`, `with`, loops), so a source inside the limits can print a module CPython refuses.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace helionc {

// CPython's MAXLEVEL: brackets open at once ("too many nested parentheses" at the 201st).
inline constexpr size_t kPythonMaxBracketDepth = 200;
// CPython's MAXINDENT is 100 indentation levels, the module's own level counted: a block
// nested 100 deep is "too many levels of indentation".
inline constexpr size_t kPythonMaxIndentLevels = 99;
// CPython's CO_MAXBLOCKS: `for`, `while`, `with` and `try` blocks nested in one function ("too
// many statically nested blocks" at the 21st).
inline constexpr size_t kPythonMaxStaticBlocks = 20;

struct PythonLimitProblem {
  size_t line = 0;  // 1-based line of the text where the limit is crossed
  std::string message;
};

// The first place where `text` (Python source that helionc printed) crosses one of the limits
// above; nullopt when CPython accepts all of it. Strings and comments are skipped.
std::optional<PythonLimitProblem> find_python_limit_problem(std::string_view text);

}  // namespace helionc
