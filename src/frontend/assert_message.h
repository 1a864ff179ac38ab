// The message of a kernel's `assert cond, "message"`, as Python str literals for the generated
// module that show what Python itself would show when the assert fails.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "parse/syntax_tree.h"

namespace helionc::frontend {

struct AssertMessage {
  // A Python str literal: the message itself, or with `fields`, the template of Python's
  // str.format that the fields' values fill in (`"size mismatch {} != {}"`).
  std::string literal;
  // An f-string's field expressions in order (`k`, `k2`), each lowered to a value of the module,
  // where `{k!r:>8}` keeps its conversion and format spec in the template.
  std::vector<parse::SyntaxNode> fields;
};

// `message` is a `string` node. A str literal is kept as written. An f-string becomes a
// str.format template and its fields (str.format reads `{{`, `}}`, conversions and specs as an
// f-string does); one without fields becomes the plain literal. A bytes literal is replaced by
// its repr (`b'msg'`), which is what AssertionError(b"msg") prints. Returns nullopt for a field
// helionc does not rewrite: `{x=}`, or a field nested in a format spec with its own conversion
// or spec (`{x:{width!r}}`).
std::optional<AssertMessage> assert_message(const parse::SyntaxNode& message);

}  // namespace helionc::frontend
