// The message of a kernel's `assert cond, "message"`, as a Python str literal for the generated
// module that shows what Python itself would show when the assert fails.
#pragma once

#include <optional>
#include <string>

#include "parse/syntax_tree.h"

namespace helionc::frontend {

// `message` is a `string` node. A str literal is kept as written. An f-string's fields are torch
// expressions (`{x.size(0)}`) that mean nothing in the module, so they are shown as written
// while its `{{` and `}}` become single braces, as Python prints them. A bytes literal is
// replaced by its repr (`b'msg'`), which is what AssertionError(b"msg") prints. Returns nullopt
// for a raw f-string whose fields hold a quote, a backslash or a line break (no literal can
// show them as written).
std::optional<std::string> assert_message_literal(const parse::SyntaxNode& message);

}  // namespace helionc::frontend
