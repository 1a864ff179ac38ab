// Docstrings carried from a kernel's source to the generated module.
//
// - clean_docstring: the text between a docstring's quotes as `inspect.cleandoc` cleans it:
//   tabs expanded to 8 columns, the first line's leading blanks dropped, the common leading
//   blanks of the other (non-blank) lines removed, trailing blanks of every line and blank lines
//   at either end dropped.
// - docstring_lines: the lines of a `"""` literal whose value is `text` (one per line of
//   `text`; quotes, backslashes and characters unsafe in source escaped as double_quoted does),
//   so a docstring written as the source spelled it reads back as that spelling.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace helionc {

std::string clean_docstring(std::string_view text);

std::vector<std::string> docstring_lines(std::string_view text);

}  // namespace helionc
