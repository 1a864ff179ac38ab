#include "backend/pallas/scalar_functions.h"

#include <fmt/format.h>

#include <vector>

namespace helionc::backend::pallas {

PyExpr op_call(std::string_view spelling, const std::vector<PyExpr>& operands) {
  std::vector<std::string> args;
  args.reserve(operands.size() + 1);
  for (const PyExpr& operand : operands) args.push_back(operand.text);
  const size_t open = spelling.find("(*");
  if (open != std::string_view::npos && spelling.ends_with(")")) {
    std::string_view extra = spelling.substr(open + 2, spelling.size() - open - 3);
    if (extra.starts_with(", ")) extra.remove_prefix(2);
    if (!extra.empty()) args.emplace_back(extra);
    return py_call(spelling.substr(0, open), args);
  }
  const size_t space = spelling.find(' ');
  if (space == std::string_view::npos) return py_call(spelling, args);
  const size_t after_op = spelling.find(' ', space + 1);
  const std::string_view op = spelling.substr(space + 1, after_op - space - 1);
  const std::string_view rest = spelling.substr(after_op + 1);
  return py_binary(op, py_atom(std::string(spelling.substr(0, space))),
                   rest == "*" ? operands.at(0) : op_call(rest, operands));
}

bool uses_math(std::string_view spelling) {
  return spelling.find("math.") != std::string_view::npos;
}

std::string contiguous_stride_text(const std::string& array, std::optional<int64_t> axis) {
  if (axis) {
    return fmt::format("math.prod(max(s, 1) for s in {}.shape[{}:])", array, *axis + 1);
  }
  return fmt::format(
      "tuple(math.prod(max(s, 1) for s in {0}.shape[i + 1:]) for i in range({0}.ndim))", array);
}

namespace {

// The items of a host-code index, `call.args[first]` on, as a subscript's text.
std::string index_items(const ir::Call& call, size_t first,
                        const std::function<std::string(const ir::ExprPtr&)>& text) {
  const auto bound = [&](const ir::ExprPtr& value) {
    return value->kind == ir::ExprKind::kNoneImm ? std::string() : text(value);
  };
  std::vector<std::string> items;
  for (size_t i = first; i < call.args.size(); ++i) {
    const auto* slice = call.args[i]->as<ir::TupleExpr>();
    if (slice == nullptr) {
      items.push_back(text(call.args[i]));
      continue;
    }
    const auto& parts = slice->elements;  // start, stop, step
    std::string item = bound(parts[0]) + ":" + bound(parts[1]);
    if (parts[2]->kind != ir::ExprKind::kNoneImm) item += ":" + text(parts[2]);
    items.push_back(std::move(item));
  }
  // `x[()]`: no items index the whole array (a 0-d one's only element).
  return items.empty() ? "()" : fmt::format("{}", fmt::join(items, ", "));
}

}  // namespace

std::string host_index_text(const ir::Call& call, const std::string& array,
                            const std::function<std::string(const ir::ExprPtr&)>& text) {
  return fmt::format("{}[{}]", array, index_items(call, 1, text));
}

std::string host_index_set_text(const ir::Call& call, const std::string& array,
                                const std::function<std::string(const ir::ExprPtr&)>& text) {
  return fmt::format("{}.at[{}].set({})", array, index_items(call, 2, text), text(call.args[1]));
}

PyExpr next_power_of_2(const PyExpr& n) {
  const PyExpr below = py_binary("-", n, py_atom("1"));
  const PyExpr at_least_zero = py_call("max", {"0", below.text});
  return py_binary("<<", py_atom("1"), py_atom(at_least_zero.text + ".bit_length()"));
}

}  // namespace helionc::backend::pallas
