// --help laid out for a terminal: options in groups by task, every line within kHelpWidth
// columns. CLI11 2.1 (Debian 12) lays out the option names and descriptions but does not wrap
// long descriptions; this formatter wraps them, and the footer's paragraphs, at spaces.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace helionc::driver {

// The widest line --help prints (tests/cli/test_help.py checks it).
inline constexpr size_t kHelpWidth = 100;
// Where option descriptions start (CLI11's column): the longest option name with its
// placeholder, `--candidate-timeout SECONDS`, and the two spaces before it fit.
inline constexpr size_t kHelpNameColumn = 31;

// `text` with each of its lines broken at spaces so that none is longer than `width`
// columns; continuation lines start with `indent` spaces (counted in the width). A word longer
// than the width stays whole on its own line. Line breaks already in the text are kept.
std::string wrap_text(std::string_view text, size_t width, size_t indent = 0);

// The formatter for `helionc --help`.
std::shared_ptr<CLI::Formatter> help_formatter();

}  // namespace helionc::driver
