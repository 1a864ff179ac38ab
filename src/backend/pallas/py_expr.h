// Python expression text with its precedence, so printers add only the parentheses Python
// needs: `a + b * c`, `(a + b) * c`, `-x ** 2`, `(-x) ** 2`, `(a + b).astype(t)`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace helionc::backend::pallas {

// Python's precedence levels, lowest first (the language reference, "Operator precedence").
enum class Prec {
  kLambda,
  kTernary,  // a if c else b
  kOr,
  kAnd,
  kNot,      // not x
  kCompare,  // <, ==, in, is (chained in Python: never nested unparenthesised)
  kBitOr,
  kBitXor,
  kBitAnd,
  kShift,
  kAdd,      // + -
  kMul,      // * / // % @
  kUnary,    // -x +x ~x
  kPower,    // ** (right-associative; binds tighter than a unary on its left)
  kPrimary,  // names, literals, calls, subscripts, attributes, parenthesised forms
};

struct PyExpr {
  std::string text;
  Prec prec = Prec::kPrimary;
};

// An atom or primary (name, literal, call, subscript, attribute).
PyExpr py_atom(std::string text);

// Binary operators: `op` is the Python spelling ("+", "//", "**", "and", "<", "==", ...).
Prec binary_prec(std::string_view op);
PyExpr py_binary(std::string_view op, const PyExpr& lhs, const PyExpr& rhs);
// `then if condition else otherwise`.
PyExpr py_conditional(const PyExpr& then, const PyExpr& condition, const PyExpr& otherwise);
// Unary operators: "-", "+", "~", "not".
PyExpr py_unary(std::string_view op, const PyExpr& operand);
// `operand` as the object of an attribute access, call or subscript: parenthesised unless
// it is a primary.
std::string py_primary(const PyExpr& operand);
// `callee(args...)`.
PyExpr py_call(std::string_view callee, const std::vector<std::string>& args);
// `base[start:stop]`; an empty bound is left out.
PyExpr py_slice(const PyExpr& base, std::string_view start, std::string_view stop);
// A tuple display: `()`, `(a,)`, `(a, b)`.
std::string py_tuple(const std::vector<std::string>& elements);
// A Python string literal for `text` (double quotes, escaped).
std::string py_string(std::string_view text);

}  // namespace helionc::backend::pallas
