#include "backend/pallas/py_expr.h"

#include <fmt/format.h>

#include "support/quote.h"

namespace helionc::backend::pallas {

namespace {

std::string wrap_if(const PyExpr& e, bool parens) { return parens ? "(" + e.text + ")" : e.text; }

bool is_comparison(std::string_view op) {
  return op == "<" || op == "<=" || op == ">" || op == ">=" || op == "==" || op == "!=" ||
         op == "in" || op == "not in" || op == "is" || op == "is not";
}

}  // namespace

PyExpr py_atom(std::string text) { return {std::move(text), Prec::kPrimary}; }

Prec binary_prec(std::string_view op) {
  if (op == "or") return Prec::kOr;
  if (op == "and") return Prec::kAnd;
  if (is_comparison(op)) return Prec::kCompare;
  if (op == "|") return Prec::kBitOr;
  if (op == "^") return Prec::kBitXor;
  if (op == "&") return Prec::kBitAnd;
  if (op == "<<" || op == ">>") return Prec::kShift;
  if (op == "+" || op == "-") return Prec::kAdd;
  if (op == "**") return Prec::kPower;
  return Prec::kMul;  // * / // % @
}

PyExpr py_binary(std::string_view op, const PyExpr& lhs, const PyExpr& rhs) {
  const Prec prec = binary_prec(op);
  bool lhs_parens = false;
  bool rhs_parens = false;
  if (prec == Prec::kPower) {
    // `a ** b ** c` is `a ** (b ** c)`, and `-a ** b` is `-(a ** b)`: the left operand must be
    // a primary; the right one may be a unary or another power.
    lhs_parens = lhs.prec <= Prec::kPower;
    rhs_parens = rhs.prec < Prec::kUnary;
  } else if (prec == Prec::kCompare) {
    // `a < b < c` chains in Python, so a comparison operand is always parenthesised.
    lhs_parens = lhs.prec <= prec;
    rhs_parens = rhs.prec <= prec;
  } else {
    // Left-associative: equal precedence needs parentheses only on the right.
    lhs_parens = lhs.prec < prec;
    rhs_parens = rhs.prec <= prec;
  }
  return {fmt::format("{} {} {}", wrap_if(lhs, lhs_parens), op, wrap_if(rhs, rhs_parens)), prec};
}

PyExpr py_conditional(const PyExpr& then, const PyExpr& condition, const PyExpr& otherwise) {
  // Right-associative: `a if c else b if d else e` nests on the right without parentheses.
  return {fmt::format("{} if {} else {}", wrap_if(then, then.prec <= Prec::kTernary),
                      wrap_if(condition, condition.prec <= Prec::kTernary),
                      wrap_if(otherwise, otherwise.prec < Prec::kTernary)),
          Prec::kTernary};
}

PyExpr py_unary(std::string_view op, const PyExpr& operand) {
  if (op == "not") {
    return {"not " + wrap_if(operand, operand.prec < Prec::kNot), Prec::kNot};
  }
  // `-x ** 2` needs no parentheses (the power binds tighter), `-(a * b)` does.
  return {std::string(op) + wrap_if(operand, operand.prec < Prec::kUnary), Prec::kUnary};
}

std::string py_primary(const PyExpr& operand) {
  return wrap_if(operand, operand.prec != Prec::kPrimary);
}

PyExpr py_call(std::string_view callee, const std::vector<std::string>& args) {
  return py_atom(fmt::format("{}({})", callee, fmt::join(args, ", ")));
}

PyExpr py_slice(const PyExpr& base, std::string_view start, std::string_view stop) {
  return py_atom(fmt::format("{}[{}:{}]", py_primary(base), start, stop));
}

std::string py_tuple(const std::vector<std::string>& elements) {
  if (elements.size() == 1) return "(" + elements[0] + ",)";
  return fmt::format("({})", fmt::join(elements, ", "));
}

std::string py_string(std::string_view text) { return double_quoted(text); }

}  // namespace helionc::backend::pallas
