// The names Python itself gives meaning to: its keywords (which CPython refuses as names) and
// its builtins (which a generated module calls, so no name it defines may hide them). The
// tables are Python 3.11's `keyword.kwlist` and `dir(builtins)` without the dunder names.
#pragma once

#include <string_view>

namespace helionc {

bool is_python_keyword(std::string_view name);
bool is_python_builtin(std::string_view name);

}  // namespace helionc
