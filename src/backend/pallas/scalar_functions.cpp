#include "backend/pallas/scalar_functions.h"

#include <fmt/format.h>

#include <vector>

namespace helionc::backend::pallas {

std::string_view scalar_function(ir::Intrinsic op) {
  switch (op) {
    case ir::Intrinsic::kExp:
      return "math.exp";
    case ir::Intrinsic::kExpm1:
      return "math.expm1";
    case ir::Intrinsic::kLog:
      return "math.log";
    case ir::Intrinsic::kLog2:
      return "math.log2";
    case ir::Intrinsic::kLog10:
      return "math.log10";
    case ir::Intrinsic::kLog1p:
      return "math.log1p";
    case ir::Intrinsic::kSqrt:
      return "math.sqrt";
    case ir::Intrinsic::kSin:
      return "math.sin";
    case ir::Intrinsic::kCos:
      return "math.cos";
    case ir::Intrinsic::kTan:
      return "math.tan";
    case ir::Intrinsic::kTanh:
      return "math.tanh";
    case ir::Intrinsic::kSinh:
      return "math.sinh";
    case ir::Intrinsic::kCosh:
      return "math.cosh";
    case ir::Intrinsic::kAsin:
      return "math.asin";
    case ir::Intrinsic::kAcos:
      return "math.acos";
    case ir::Intrinsic::kAtan:
      return "math.atan";
    case ir::Intrinsic::kAbs:
      return "abs";
    case ir::Intrinsic::kFloor:
      return "math.floor";
    case ir::Intrinsic::kCeil:
      return "math.ceil";
    case ir::Intrinsic::kRound:
      return "round";
    case ir::Intrinsic::kTrunc:
      return "math.trunc";
    case ir::Intrinsic::kErf:
      return "math.erf";
    case ir::Intrinsic::kMaximum:
      return "max";
    case ir::Intrinsic::kMinimum:
      return "min";
    default:
      return {};
  }
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
