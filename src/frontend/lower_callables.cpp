// Callable parameters passed at run time (`epilogue: Callable[...]` without a default): the
// generated function takes the callable, and device code calls it on JAX values while JAX
// traces the kernel (Intrinsic::kCallParam). Tiles reach it as objects with Helion's tile
// attributes (Intrinsic::kCallTile). helionc cannot see the callable, so it types the call by
// a rule (README, "Callable parameters"), which the module checks against the real result:
//   1. the type of the first argument that is a tile value (`mm_func(acc, a, b)` is acc's);
//   2. with none, the shape of the tile arguments in order, of the dtype argument's dtype
//      (`rng_func(tile_m, tile_n, x.dtype)`).
// A call whose result is stored directly into a fresh output may instead run on the host,
// after the kernel (frontend/hoist_callables.cpp).
#include <fmt/format.h>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::Dim;
using ir::ExprPtr;
using ir::Intrinsic;
using ir::Type;
using ir::TypeKind;

void KernelLowering::lower_runtime_callable_param(const SyntaxNode& name) {
  const int id = bind(std::string(name.text()), Type::scalar(TypeKind::kCallable),
                      ir::Binding::Origin::kParam, name.range());
  kernel_.params.push_back({id, nullptr, -1, {}});
  runtime_callables_.insert(id);
  poisoned_[id] = fmt::format(
      "`{}` is a callable parameter: the kernel can only call it, in device code (`{}(...)`)",
      name.text(), name.text());
}

ExprPtr KernelLowering::callable_argument(const ExprPtr& arg, const std::string& callable,
                                          std::vector<int>& tile_dims) {
  const Type& type = arg->type;
  if (type.kind == TypeKind::kTile) {
    if (type.variadic || type.tile_dims.size() != 1) {
      unsupported(arg->range, fmt::format("passing a multi-dimensional tile to `{}` (pass its "
                                          "dimensions' tiles, e.g. `(tile_m, tile_n)`)",
                                          callable));
    }
    const int dim = type.tile_dims[0];
    tile_dims.push_back(dim);
    std::vector<ExprPtr> attrs;
    for (ir::TileAttrKind kind : {ir::TileAttrKind::kBegin, ir::TileAttrKind::kEnd,
                                  ir::TileAttrKind::kBlockSize, ir::TileAttrKind::kId}) {
      attrs.push_back(ir::TileAttr::make(dim, kind, Type::scalar(TypeKind::kInt), arg->range));
    }
    // The block's indices as the kernel lays them out (a first block may start before a
    // loop's begin: blocks are numbered from the array's start).
    attrs.push_back(ir::TileAttr::make(dim, ir::TileAttrKind::kIndex,
                                       Type::tile_tensor({Dim::tile(dim)}, ir::ScalarType::kInt32),
                                       arg->range));
    const Type ints = Type::scalar(TypeKind::kInt);
    Type type = Type::tuple({ints, ints, ints, ints, attrs.back()->type});
    return ir::Call::make(Intrinsic::kCallTile, std::move(attrs), std::move(type), arg->range);
  }
  if (const auto* tuple = arg->as<ir::TupleExpr>();
      tuple && (type.kind == TypeKind::kTuple || type.kind == TypeKind::kShape)) {
    std::vector<ExprPtr> elements;
    std::vector<Type> types;
    for (const ExprPtr& element : tuple->elements) {
      elements.push_back(callable_argument(element, callable, tile_dims));
      types.push_back(elements.back()->type);
    }
    return ir::TupleExpr::make(std::move(elements), Type::tuple(std::move(types)), arg->range);
  }
  if (type.kind == TypeKind::kTileTensor && type.tile_rank() < 0) {
    // Its blocks could not be masked past the loop's range, which a callable may reduce over.
    unsupported(arg->range, fmt::format("passing a tile value of trace-time rank (from "
                                        "`hl.tile(x.size())`) to the callable parameter `{}`",
                                        callable));
  }
  if (type.kind == TypeKind::kTileTensor || type.is_scalar() || type.kind == TypeKind::kDtype) {
    return arg;
  }
  unsupported(arg->range, fmt::format("passing a value of type `{}` to the callable parameter `{}`",
                                      ir::type_to_string(type), callable));
}

ExprPtr KernelLowering::lower_callable_call(int id, const CallArgs& args) {
  const std::string& callable = binding(id).name;
  const SourceRange range = args.call.range();
  if (!in_device()) {
    unsupported(range, fmt::format("calling the callable parameter `{}` in host code (outside "
                                   "`hl.tile` loops)",
                                   callable));
  }
  if (!args.keywords.empty()) {
    unsupported(args.keywords.front().second.parent().range(),
                fmt::format("a keyword argument of the callable parameter `{}`", callable));
  }
  if (args.splat) {
    unsupported(args.splat.range(), fmt::format("`*` in a call of `{}`", callable));
  }
  std::vector<ExprPtr> values;
  std::vector<Type> types;
  std::vector<int> tile_dims;
  const ExprPtr* first_value = nullptr;
  const ExprPtr* dtype = nullptr;
  for (const SyntaxNode& arg : args.positional) {
    values.push_back(callable_argument(lower_expr(arg), callable, tile_dims));
    types.push_back(values.back()->type);
  }
  for (const ExprPtr& value : values) {
    if (!first_value && value->type.kind == TypeKind::kTileTensor) first_value = &value;
    if (!dtype && value->type.kind == TypeKind::kDtype) dtype = &value;
  }
  Type result;
  ExprPtr expected_dtype;
  if (first_value) {
    // Rule 1: the first tile value's type; its dtype checked when known, else the module
    // compares with that argument's dtype (None).
    result = (*first_value)->type;
    expected_dtype =
        result.dtype ? ir::DtypeImm::make(*result.dtype, range) : ir::NoneImm::make(range);
  } else if (dtype && !tile_dims.empty()) {
    // Rule 2: the tiles' shape, of the dtype argument's dtype.
    std::vector<Dim> dims;
    for (int dim : tile_dims) dims.push_back(Dim::tile(dim));
    std::optional<ir::ScalarType> scalar;
    if (const auto* imm = (*dtype)->as<ir::DtypeImm>()) scalar = imm->dtype;
    result = Type::tile_tensor(std::move(dims), scalar);
    expected_dtype = *dtype;
  } else {
    fail(DiagnosticKind::kUnsupported, range,
         fmt::format("helionc cannot tell the type of `{}(...)`: it types a call of a callable "
                     "parameter as its first tile-value argument, or, with none, as the shape "
                     "of its tile arguments with the dtype of its dtype argument "
                     "(`{}(tile_m, tile_n, x.dtype)`)",
                     callable, callable));
  }
  ExprPtr arguments = ir::TupleExpr::make(std::move(values), Type::tuple(std::move(types)), range);
  return ir::Call::make(Intrinsic::kCallParam,
                        {ref(id, range), std::move(arguments), std::move(expected_dtype)},
                        std::move(result), range);
}

}  // namespace helionc::frontend
