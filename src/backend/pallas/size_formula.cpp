#include "backend/pallas/size_formula.h"

#include <string>

#include "support/internal_check.h"

namespace helionc::backend::pallas {

PyExpr print_size(const passes::SizeExpr& expr,
                  const std::function<PyExpr(const passes::SizeExpr& leaf)>& leaf) {
  using Kind = passes::SizeExpr::Kind;
  switch (expr.kind) {
    case Kind::kConst:
      return py_atom(std::to_string(expr.value));
    case Kind::kBlock:
    case Kind::kAxisSize:
    case Kind::kItemSize:
    case Kind::kBuffers:
    case Kind::kExtent:
    case Kind::kComputed:
      return leaf(expr);
    case Kind::kCeilDiv:
      return py_call("pl.cdiv",
                     {print_size(expr.args[0], leaf).text, print_size(expr.args[1], leaf).text});
    case Kind::kTiled: {
      std::vector<std::string> shape;
      for (const passes::SizeExpr& extent : expr.args)
        shape.push_back(print_size(extent, leaf).text);
      const std::string item = expr.binding >= 0
                                   ? leaf(passes::SizeExpr::item_size(expr.binding)).text
                                   : std::to_string(expr.value);
      return py_call("_vmem_bytes", {py_tuple(shape), item});
    }
    case Kind::kAdd:
    case Kind::kMul: {
      PyExpr result = print_size(expr.args.front(), leaf);
      for (size_t i = 1; i < expr.args.size(); ++i) {
        result =
            py_binary(expr.kind == Kind::kAdd ? "+" : "*", result, print_size(expr.args[i], leaf));
      }
      return result;
    }
    case Kind::kMin: {
      // Nested minimums print as one call: min(a, b, c).
      std::vector<std::string> operands;
      std::function<void(const passes::SizeExpr&)> add = [&](const passes::SizeExpr& operand) {
        if (operand.kind != Kind::kMin) {
          operands.push_back(print_size(operand, leaf).text);
          return;
        }
        for (const passes::SizeExpr& arg : operand.args) add(arg);
      };
      add(expr);
      return py_call("min", operands);
    }
    case Kind::kIfAtMost:
      return py_conditional(
          print_size(expr.args[0], leaf),
          py_binary("<=", print_size(expr.args[1], leaf), py_atom(std::to_string(expr.value))),
          py_atom("0"));
    case Kind::kRoundUp: {
      const PyExpr multiple = print_size(expr.args[1], leaf);
      return py_binary(
          "*", py_call("pl.cdiv", {print_size(expr.args[0], leaf).text, multiple.text}), multiple);
    }
  }
  HELIONC_UNREACHABLE("a size formula of no kind");
}

}  // namespace helionc::backend::pallas
