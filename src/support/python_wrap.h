// Breaks generated Python lines longer than a width (100 by default) the way a person would
// (and much as black does): inside the line's last bracket pair, one argument per line with a
// trailing comma; a long right-hand side of an assignment in parentheses; a long conditional
// expression at its `if` and `else`. Lines inside triple-quoted strings, and lines that cannot
// be broken safely (no bracket to break in, a comprehension's `for` among the items), are kept
// as they are: the result is always the same program.
//
//   acc = acc + _dot(jnp.where(i < k, x_ref[...], 0) if p else x_ref[...], y, dims)  # k.py:3
// becomes
//   acc = acc + _dot(
//       jnp.where(i < k, x_ref[...], 0) if p else x_ref[...],
//       y,
//       dims,
//   )  # k.py:3
#pragma once

#include <string>
#include <string_view>

namespace helionc {

inline constexpr size_t kPythonLineWidth = 100;

// `text`: whole lines of Python, each ending in '\n'. Returns them with long lines broken.
std::string wrap_python_lines(std::string_view text, size_t width = kPythonLineWidth);

}  // namespace helionc
