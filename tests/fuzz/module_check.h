// A fast structural check of a generated module, run inside the fuzz targets on every module a
// compile produces (CPython's own parser checks the same modules in a second stage of the test
// run: check_modules.py). It looks for what would let outside text escape its place or keep
// the module from importing: bytes that are not UTF-8, control characters and line breaks
// other than `\n` (support/utf8.h), unbalanced brackets, unterminated strings, indentation
// that is not made of 4-space steps, and a block header (`...:`) with no indented body.
#pragma once

#include <string>
#include <string_view>

namespace helionc::fuzz {

// "" when the module passes, else the first problem ("line 12: ...").
std::string check_module_structure(std::string_view module);

}  // namespace helionc::fuzz
