// A double-quoted string literal with C-style escapes (\" \\ \n \t \r and \xNN for other
// control characters), which Python and YAML both read back as the same string. (JSON has its
// own rules: support/json.h.)
#pragma once

#include <string>
#include <string_view>

namespace helionc {

std::string double_quoted(std::string_view text);

}  // namespace helionc
