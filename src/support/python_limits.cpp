#include "support/python_limits.h"

#include <fmt/format.h>

#include <vector>

namespace helionc {
namespace {

// One past the end of the string literal whose opening quote is text[i].
size_t skip_string(std::string_view text, size_t i) {
  const char quote = text[i];
  const bool triple = text.substr(i, 3) == std::string(3, quote);
  size_t k = i + (triple ? 3 : 1);
  while (k < text.size()) {
    if (text[k] == '\\') {
      k += 2;
    } else if (text[k] == quote && (!triple || text.substr(k, 3) == std::string(3, quote))) {
      return k + (triple ? 3 : 1);
    } else {
      ++k;
    }
  }
  return text.size();
}

// What a logical line starting with `text` opens for the lines indented under it: a new code
// object (`def`, `class`), or static blocks of CPython's compiler (`for`, `while`, `with`: one;
// `try` and its handlers: counted as two, more than CPython's own count, so the check errs on
// the side of refusing).
struct Opens {
  bool code_object = false;
  size_t blocks = 0;
};

Opens opened_by(std::string_view text) {
  const auto starts = [&](std::string_view word) {
    return text.starts_with(word) && (text.size() == word.size() || text[word.size()] == ' ' ||
                                      text[word.size()] == ':' || text[word.size()] == '(');
  };
  if (starts("async")) {
    text.remove_prefix(std::string_view("async").size());
    text.remove_prefix(std::min(text.size(), text.find_first_not_of(" \t")));
  }
  if (starts("def") || starts("class")) return {true, 0};
  if (starts("for") || starts("while") || starts("with")) return {false, 1};
  if (starts("try") || starts("except") || starts("finally")) return {false, 2};
  return {};
}

struct Level {
  size_t column;
  size_t blocks;  // static blocks around the lines at this level, in their code object
};

}  // namespace

std::optional<PythonLimitProblem> find_python_limit_problem(std::string_view text) {
  size_t line = 1;
  size_t brackets = 0;
  std::vector<Level> indents = {{0, 0}};  // CPython's indentation stack
  Opens header;                           // what the previous logical line opens
  bool line_start = true;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (line_start && brackets == 0) {
      // A logical line starts: its indentation (blank and comment lines have none).
      size_t column = 0;
      size_t k = i;
      for (; k < text.size() && (text[k] == ' ' || text[k] == '\t'); ++k) {
        column = text[k] == '\t' ? (column / 8 + 1) * 8 : column + 1;
      }
      line_start = false;
      if (k < text.size() && text[k] != '\n' && text[k] != '#') {
        while (column < indents.back().column) indents.pop_back();
        if (column > indents.back().column) {
          indents.push_back(
              {column, header.code_object ? 0 : indents.back().blocks + header.blocks});
        }
        if (indents.size() - 1 > kPythonMaxIndentLevels) {
          return PythonLimitProblem{
              line, fmt::format("too many levels of indentation (more than {}, CPython's limit)",
                                kPythonMaxIndentLevels)};
        }
        if (indents.back().blocks > kPythonMaxStaticBlocks) {
          return PythonLimitProblem{
              line, fmt::format("too many statically nested blocks (more than {} `for`, `while`, "
                                "`with` and `try` blocks in one function, CPython's limit)",
                                kPythonMaxStaticBlocks)};
        }
        header = opened_by(text.substr(k));
      }
      i = k;
      continue;
    }
    if (c == '\n') {
      ++line;
      line_start = true;
      ++i;
    } else if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      const size_t end = skip_string(text, i);
      for (size_t k = i; k < end; ++k) line += text[k] == '\n';
      i = end;
    } else if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++line;
      i += 2;  // a line continuation: the same logical line
    } else {
      if (c == '(' || c == '[' || c == '{') {
        if (++brackets > kPythonMaxBracketDepth) {
          return PythonLimitProblem{
              line, fmt::format("too many nested parentheses (more than {} brackets open at "
                                "once, CPython's limit)",
                                kPythonMaxBracketDepth)};
        }
      } else if ((c == ')' || c == ']' || c == '}') && brackets > 0) {
        --brackets;
      }
      ++i;
    }
  }
  return std::nullopt;
}

}  // namespace helionc
