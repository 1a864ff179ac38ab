#include "backend/pallas/expr_printer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "backend/pallas/scalar_functions.h"
#include "ir/visitor.h"
#include "ops/operations.h"
#include "passes/held_blocks.h"
#include "passes/plan_lane_rows.h"
#include "support/quote.h"

namespace helionc::backend::pallas {

namespace {

using ir::Intrinsic;

// `path:line` of `range`, as the module's trace-time errors name the source they check.
std::string source_place(const SourceRange& range) {
  return fmt::format("{}:{}", range.file->path(), range.file->line_column(range.begin).line);
}

// Whether bfloat16 and float16 both represent `value` exactly (at most 8 significant bits, an
// exponent float16 can hold; infinities too).
bool exact_in_16_bits(double value) {
  if (value == 0.0 || std::isinf(value)) return true;
  if (std::isnan(value)) return false;
  int exponent = 0;
  const double mantissa = std::frexp(std::fabs(value), &exponent);  // in [0.5, 1)
  const double scaled = std::ldexp(mantissa, 8);
  return scaled == std::floor(scaled) && exponent >= -13 && exponent <= 16;
}

}  // namespace

// `tile op number` where the tile may hold 16-bit floats (bfloat16, float16, or a dtype known
// only at trace time) and the number is a Python float: + - * / only.
bool ExprPrinter::needs_scalar_opmath(const ir::Binary& node) {
  const bool arith = node.op == ir::BinaryOp::kAdd || node.op == ir::BinaryOp::kSub ||
                     node.op == ir::BinaryOp::kMul || node.op == ir::BinaryOp::kDiv;
  if (!arith) return false;
  const auto narrow_tile = [](const ir::Type& type) {
    if (type.kind != ir::TypeKind::kTileTensor) return false;
    return !type.dtype || *type.dtype == ir::ScalarType::kBFloat16 ||
           *type.dtype == ir::ScalarType::kFloat16 || ir::is_float8(*type.dtype);
  };
  // A literal that bfloat16 and float16 both hold exactly (0.5, 1.0, 3.0) gives the same
  // result either way, so the product stays plain and readable.
  const auto python_float = [](const ir::ExprPtr& value) {
    if (value->type.kind != ir::TypeKind::kFloat) return false;
    const auto* literal = value->as<ir::FloatImm>();
    return literal == nullptr || !exact_in_16_bits(literal->value);
  };
  return (narrow_tile(node.lhs->type) && python_float(node.rhs)) ||
         (python_float(node.lhs) && narrow_tile(node.rhs->type));
}

// An elementwise operand with a unit axis among the last two where the result has a block
// (`m[:, None]` against scores): broadcast through one register tile (`_tile_broadcast`), since a
// broadcast along lanes or sublanes costs Mosaic a vector operation per element and copying
// registers costs nothing. Unchanged when the result's block shape is not known here.
PyExpr ExprPrinter::broadcast_operand(const ir::Expr& operand, PyExpr value,
                                      const ir::Expr& result) {
  const ir::Type& from = operand.type;
  const ir::Type& to = result.type;
  if (from.kind != ir::TypeKind::kTileTensor || to.kind != ir::TypeKind::kTileTensor ||
      from.dims.size() != to.dims.size() || to.dims.size() < 2) {
    return value;
  }
  bool broadcast = false;
  for (size_t axis = to.dims.size() - 2; axis < to.dims.size(); ++axis) {
    broadcast |=
        from.dims[axis].kind == ir::Dim::Kind::kUnit && to.dims[axis].kind == ir::Dim::Kind::kTile;
  }
  if (!broadcast) return value;
  const std::optional<std::string> shape = context_.block_shape(result);
  if (!shape) return value;
  imports_.helpers.insert("tile_broadcast");
  return py_call("_tile_broadcast", {value.text, *shape});
}

// Lane rows of a unit last axis broadcast against a block of the same leading axes
// (`s - m[:, :, None]`): their 128-lane tile repeated, a copy of whole registers. The block's
// shape is the result's, or the other operand's when that is a name of the result's shape.
std::optional<PyExpr> ExprPrinter::lane_tile_operand(const ir::Binary& node,
                                                     const ir::Expr& operand) {
  const std::set<int>* rows = context_.lane_rows();
  if (rows == nullptr || passes::lane_tiled_operand(node, *rows) != &operand) return std::nullopt;
  const ir::Expr& other = &operand == node.lhs.get() ? *node.rhs : *node.lhs;
  std::optional<std::string> shape = context_.block_shape(node);
  if (!shape && other.kind == ir::ExprKind::kVarRef && other.type.dims == node.type.dims) {
    shape = py_primary(context_.var(*other.as<ir::VarRef>())) + ".shape";
  }
  if (!shape) return std::nullopt;
  imports_.helpers.insert("lane_rows");
  const ir::ExprPtr& side = &operand == node.lhs.get() ? node.lhs : node.rhs;
  return py_call("_lane_tile", {print_lane_rows(side).text, *shape});
}

// Lane rows where a value of their own shape is needed: lane 0 of each row.
PyExpr ExprPrinter::row_values(const ir::Type& type, const PyExpr& rows) {
  imports_.helpers.insert("lane_rows");
  if (type.dims.back().kind == ir::Dim::Kind::kUnit) {
    return py_atom(py_primary(rows) + "[..., :1]");
  }
  return py_call("_row_values", {rows.text});
}

bool ExprPrinter::lane_row_value(const ir::Expr& expr) const {
  const std::set<int>* rows = context_.lane_rows();
  return rows != nullptr && !rows->empty() && passes::reads_lane_rows(expr, *rows);
}

PyExpr ExprPrinter::print_lane_rows(const ir::ExprPtr& expr) {
  const bool outer = lane_rows_mode_;
  lane_rows_mode_ = true;
  PyExpr value = print(expr);
  lane_rows_mode_ = outer;
  return value;
}

// A call in a lane row's tree: a reduction along the last axis kept with keepdims and repeated
// over the lanes, a `full` repeated so, a unit last axis added or dropped (the same rows), or
// elementwise work on lane rows (printed as usual).
PyExpr ExprPrinter::lane_rows_call(const ir::Call& node) {
  if (passes::unit_axis_operand(node) != nullptr) return print(node.args[0]);
  if (passes::lane_row_reduction(node) || node.op == Intrinsic::kFull) {
    lane_rows_mode_ = false;  // the operand is a block, the fill a scalar
    PyExpr value = reduction_or_full(node);
    lane_rows_mode_ = true;
    imports_.helpers.insert("lane_rows");
    return py_call("_lane_rows", {value.text});
  }
  return call(node);
}

// A lane row's reduction with keepdims, or its `full` with a unit last axis.
PyExpr ExprPrinter::reduction_or_full(const ir::Call& node) {
  if (node.op != Intrinsic::kFull) return reduction(node, /*keep_dims=*/true);
  PyExpr full = call(node);
  if (node.type.dims.back().kind == ir::Dim::Kind::kUnit) return full;
  return py_atom(py_primary(full) + "[..., None]");
}

bool ExprPrinter::is_array(const ir::ExprPtr& expr) {
  return expr->type.kind == ir::TypeKind::kTileTensor || expr->type.kind == ir::TypeKind::kTensor;
}

PyExpr ExprPrinter::unsupported(const ir::Expr& expr, std::string what) {
  diags_.error(DiagnosticKind::kUnsupported, expr.range,
               fmt::format("{} is not supported by the Pallas backend yet", what));
  ok_ = false;
  return py_atom("None");
}

PyExpr ExprPrinter::print(const ir::ExprPtr& expr) {
  if (lane_rows_mode_ && expr->type.kind != ir::TypeKind::kTileTensor) {
    // A scalar operand of lane rows' elementwise work (or a dtype): printed as anywhere.
    lane_rows_mode_ = false;
    PyExpr value = print(expr);
    lane_rows_mode_ = true;
    return value;
  }
  if (!lane_rows_mode_) {
    if (auto named = named_.find(expr.get()); named != named_.end()) return py_atom(named->second);
  }
  switch (expr->kind) {
    case ir::ExprKind::kIntImm: {
      const int64_t value = expr->as<ir::IntImm>()->value;
      return value < 0 ? PyExpr{std::to_string(value), Prec::kUnary}
                       : py_atom(std::to_string(value));
    }
    case ir::ExprKind::kFloatImm: {
      const std::string& spelling = expr->as<ir::FloatImm>()->spelling;
      return !spelling.empty() && spelling[0] == '-' ? PyExpr{spelling, Prec::kUnary}
                                                     : py_atom(spelling);
    }
    case ir::ExprKind::kBoolImm:
      return py_atom(expr->as<ir::BoolImm>()->value ? "True" : "False");
    case ir::ExprKind::kNoneImm:
      return py_atom("None");
    case ir::ExprKind::kStringImm:
      return py_atom(expr->as<ir::StringImm>()->spelling);
    case ir::ExprKind::kDtypeImm: {
      // Device code holds float16 as float32 (ir::device_dtype).
      const ir::ScalarType dtype = expr->as<ir::DtypeImm>()->dtype;
      return py_atom(
          std::string(ir::jnp_dtype(context_.in_kernel() ? ir::device_dtype(dtype) : dtype)));
    }
    case ir::ExprKind::kVarRef: {
      const auto& ref = *expr->as<ir::VarRef>();
      PyExpr value = context_.var(ref);
      const std::set<int>* rows = context_.lane_rows();
      if (lane_rows_mode_ || rows == nullptr || !rows->contains(ref.binding)) return value;
      return row_values(expr->type, value);
    }
    case ir::ExprKind::kUnary: {
      const auto& node = *expr->as<ir::Unary>();
      PyExpr operand = print(node.operand);
      switch (node.op) {
        case ir::UnaryOp::kNeg:
          return py_unary("-", operand);
        case ir::UnaryOp::kPos:
          return py_unary("+", operand);
        case ir::UnaryOp::kInvert:
          return py_unary("~", operand);
        case ir::UnaryOp::kNot:
          return is_array(node.operand) ? py_call("jnp.logical_not", {operand.text})
                                        : py_unary("not", operand);
      }
      return operand;
    }
    case ir::ExprKind::kBinary: {
      const auto& node = *expr->as<ir::Binary>();
      std::optional<PyExpr> lhs = lane_tile_operand(node, *node.lhs);
      if (!lhs) lhs = broadcast_operand(*node.lhs, print(node.lhs), *expr);
      std::optional<PyExpr> rhs = lane_tile_operand(node, *node.rhs);
      if (!rhs) rhs = broadcast_operand(*node.rhs, print(node.rhs), *expr);
      const bool arrays = is_array(node.lhs) || is_array(node.rhs);
      if (arrays && node.op == ir::BinaryOp::kAnd) {
        return py_call("jnp.logical_and", {lhs->text, rhs->text});
      }
      if (arrays && node.op == ir::BinaryOp::kOr) {
        return py_call("jnp.logical_or", {lhs->text, rhs->text});
      }
      if (needs_scalar_opmath(node)) {
        // PyTorch keeps the number in float32 against a 16-bit float tile (JAX would round it).
        imports_.helpers.insert("scalar_op");
        const std::string op(ir::binary_op_spelling(node.op));
        return py_call("_scalar_op", {lhs->text, py_string(op), rhs->text});
      }
      return py_binary(ir::binary_op_spelling(node.op), *lhs, *rhs);
    }
    case ir::ExprKind::kCompare: {
      const auto& node = *expr->as<ir::Compare>();
      if (std::string_view function = narrow_compare(node); !function.empty()) {
        // A mask in a kernel is compared from 32-bit values (templates/helper_layout.py.tmpl).
        imports_.helpers.insert("layout");
        return py_call("_compare", {std::string(function), text(node.lhs), text(node.rhs)});
      }
      return py_binary(ir::compare_op_spelling(node.op), print(node.lhs), print(node.rhs));
    }
    case ir::ExprKind::kCall: {
      const auto& node = *expr->as<ir::Call>();
      if (lane_rows_mode_) return lane_rows_call(node);
      if (passes::unit_axis_operand(node) != nullptr && lane_row_value(node)) {
        // `m[..., None]` or `m.squeeze(-1)` of lane rows: the same rows, read in this shape.
        return row_values(node.type, print_lane_rows(expr));
      }
      PyExpr value = call(node);
      if (!context_.in_kernel() || !passes::lands_on_sublanes(node)) return value;
      imports_.helpers.insert("lanes");
      return py_call("_lanes", {value.text});
    }
    case ir::ExprKind::kLoad:
      return context_.load(*expr->as<ir::Load>());
    case ir::ExprKind::kTupleExpr: {
      std::vector<std::string> elements;
      for (const ir::ExprPtr& e : expr->as<ir::TupleExpr>()->elements) {
        // A shape inside a list of sizes (`(*x.shape, n)`) is unpacked into it.
        const bool unpacked =
            e->type.kind == ir::TypeKind::kShape && expr->type.kind == ir::TypeKind::kShape;
        elements.push_back(unpacked ? "*" + text(e) : text(e));
      }
      return py_atom(py_tuple(elements));
    }
    case ir::ExprKind::kTileAttr: {
      const auto& attr = *expr->as<ir::TileAttr>();
      if (std::optional<PyExpr> value = context_.tile_attr(attr)) return *value;
      return unsupported(*expr, fmt::format("`tile.{}` here", ir::tile_attr_name(attr.attr)));
    }
    case ir::ExprKind::kTupleGet: {
      const auto& node = *expr->as<ir::TupleGet>();
      return py_atom(fmt::format("{}[{}]", py_primary(print(node.tuple)), node.index));
    }
  }
  return unsupported(*expr, "this expression");
}

PyExpr ExprPrinter::call_param(const ir::Call& node) {
  // `_call_param(fn, (args...), shape, dtype, where, name, in_kernel)`
  // (templates/helper_call_param.py.tmpl): the call of a callable parameter, checked against
  // the type the frontend gave it. In a kernel that is a block's shape; on the host (a call
  // moved after the kernel, frontend/hoist_callables.cpp) the first array argument's.
  imports_.helpers.insert("call_param");
  imports_.numpy = true;
  std::string shape = "None";
  if (context_.in_kernel()) {
    std::optional<std::string> block = context_.block_shape(node);
    if (!block) return unsupported(node, "the result shape of a callable parameter's call here");
    shape = *block;
  }
  // In a kernel, tile values have zeros past the loops' ranges, as Helion's masked loads give
  // them (a callable may contract or reduce along any axis).
  std::vector<std::string> arguments;
  for (const ir::ExprPtr& arg : node.args[1]->as<ir::TupleExpr>()->elements) {
    PyExpr value = print(arg);
    if (context_.in_kernel() && arg->type.kind == ir::TypeKind::kTileTensor) {
      for (int axis = 0; axis < static_cast<int>(arg->type.dims.size()); ++axis) {
        if (context_.padding(*arg, axis) == passes::Pad::kZero) continue;
        value = context_.masked_operand(*arg, value, axis, "0");
      }
    }
    arguments.push_back(value.text);
  }
  const std::string& name = kernel_.bindings[node.args[0]->as<ir::VarRef>()->binding].name;
  return py_call("_call_param", {text(node.args[0]), py_tuple(arguments), shape, text(node.args[2]),
                                 py_string(source_place(node.range)), py_string(name),
                                 context_.in_kernel() ? "True" : "False"});
}

PyExpr ExprPrinter::call(const ir::Call& node) {
  const auto& args = node.args;
  auto arg_texts = [&] {
    std::vector<std::string> texts;
    texts.reserve(args.size());
    for (const ir::ExprPtr& arg : args) texts.push_back(text(arg));
    return texts;
  };
  if (node.op == Intrinsic::kDot) return dot(node);
  if (node.op == Intrinsic::kScan || node.op == Intrinsic::kCombineReduce) {
    // `_scan(lambda l, r: (l + r,), (x,), 1, False)`: the combine as a lambda over its hidden
    // parameters (templates/helper_scan.py.tmpl).
    const std::string helper = node.op == Intrinsic::kScan ? "scan" : "combine_reduce";
    imports_.helpers.insert(helper);
    std::vector<std::string> params;
    for (const ir::ExprPtr& param : args[3]->as<ir::TupleExpr>()->elements) {
      params.push_back(text(param));
    }
    const std::string combine =
        fmt::format("lambda {}: {}", fmt::join(params, ", "), text(args[4]));
    return py_call("_" + helper, {combine, text(args[0]), text(args[1]), text(args[2])});
  }
  if (ir::reduces_along_axis(node.op)) return reduction(node);
  switch (node.op) {
    case Intrinsic::kDtypeOf:
    case Intrinsic::kSize:
    case Intrinsic::kShapeOf:
    case Intrinsic::kNumel:
    case Intrinsic::kNdim: {
      if (const auto* tensor = args[0]->as<ir::VarRef>();
          tensor && tensor->type.kind == ir::TypeKind::kTensor) {
        return context_.tensor_query(node.op, *tensor, args.size() > 1 ? args[1] : nullptr);
      }
      // A lane row's dtype is its values' (its shape is not).
      const bool rows = node.op == Intrinsic::kDtypeOf && lane_row_value(*args[0]);
      const std::string value = py_primary(rows ? print_lane_rows(args[0]) : print(args[0]));
      switch (node.op) {
        case Intrinsic::kDtypeOf:
          return py_atom(value + ".dtype");
        case Intrinsic::kShapeOf:
          return py_atom(value + ".shape");
        case Intrinsic::kSize:
          return py_atom(fmt::format("{}.shape[{}]", value, text(args[1])));
        case Intrinsic::kNumel:
          return py_atom(value + ".size");
        default:
          return py_atom(value + ".ndim");
      }
    }
    case Intrinsic::kLen:  // a list of sizes given as an argument
      return py_call("len", {print(args[0]).text});
    case Intrinsic::kHostIndex:
      return py_atom(host_index_text(node, py_primary(print(args[0])),
                                     [&](const ir::ExprPtr& value) { return text(value); }));
    case Intrinsic::kHostIndexSet:
      return py_atom(host_index_set_text(node, py_primary(print(args[0])),
                                         [&](const ir::ExprPtr& value) { return text(value); }));
    case Intrinsic::kStride: {
      imports_.math = true;
      const auto* axis = args[1]->as<ir::IntImm>();
      return py_atom(contiguous_stride_text(
          py_primary(print(args[0])), axis ? std::optional<int64_t>(axis->value) : std::nullopt));
    }
    case Intrinsic::kShapeSlice: {
      const auto bound = [&](const ir::ExprPtr& value) {
        return value->kind == ir::ExprKind::kNoneImm ? std::string() : text(value);
      };
      return py_slice(print(args[0]), bound(args[1]), bound(args[2]));
    }
    case Intrinsic::kPromoteTypes:
      return py_call("jnp.promote_types", arg_texts());
    case Intrinsic::kBroadcastTensors:
      return py_call("jnp.broadcast_arrays", arg_texts());
    case Intrinsic::kCast: {
      const PyExpr value = print(args[0]);
      const std::string dtype = text(args[1]);
      if (is_array(args[0])) return py_atom(fmt::format("{}.astype({})", py_primary(value), dtype));
      return py_call("jnp.asarray", {value.text, dtype});
    }
    case Intrinsic::kFullLike: {
      const std::string like = text(args[0]);
      const bool has_dtype = args.size() > 2 && args[2]->kind != ir::ExprKind::kNoneImm;
      std::vector<std::string> call_args = {like};
      std::string_view function = "jnp.full_like";
      if (ir::is_number(*args[1], 0)) {
        function = "jnp.zeros_like";
      } else if (ir::is_number(*args[1], 1)) {
        function = "jnp.ones_like";
      } else {
        call_args.push_back(text(args[1]));
      }
      if (has_dtype) call_args.push_back("dtype=" + text(args[2]));
      return py_call(function, call_args);
    }
    case Intrinsic::kClamp: {
      std::vector<std::string> call_args = {text(args[0])};
      const bool lo = args[1]->kind != ir::ExprKind::kNoneImm;
      const bool hi = args[2]->kind != ir::ExprKind::kNoneImm;
      if (lo && hi) {
        call_args.push_back(text(args[1]));
        call_args.push_back(text(args[2]));
      } else if (lo) {
        call_args.push_back("min=" + text(args[1]));
      } else if (hi) {
        call_args.push_back("max=" + text(args[2]));
      }
      return py_call("jnp.clip", call_args);
    }
    case Intrinsic::kArange: {
      // hl.arange(length): an int32 iota (what Mosaic makes), converted for other dtypes.
      PyExpr iota =
          py_call("jax.lax.broadcasted_iota", {"jnp.int32", py_tuple({text(args[0])}), "0"});
      const auto* dtype = args[1]->as<ir::DtypeImm>();
      if (dtype && dtype->dtype == ir::ScalarType::kInt32) return iota;
      return py_atom(fmt::format("{}.astype({})", py_primary(iota), text(args[1])));
    }
    case Intrinsic::kUnsqueeze:
    case Intrinsic::kSqueeze:
    case Intrinsic::kPermute:
    case Intrinsic::kReshape:
    case Intrinsic::kSwapAxes:
    case Intrinsic::kBroadcastTo:
    case Intrinsic::kStack:
    case Intrinsic::kFull:
      return shape_op(node);
    case Intrinsic::kPrint: {
      // pl.debug_print lines in a kernel (helper_print.py.tmpl); Python's print on the host,
      // which under `jax.jit` prints while JAX traces (arrays as tracers), as any JAX code's
      // print does: jax.debug.print would print the values but cannot be exported for a TPU
      // from another platform.
      std::vector<std::string> parts;
      for (const ir::ExprPtr& arg : args) parts.push_back(text(arg));
      if (!context_.in_kernel()) return py_call("print", parts);
      imports_.helpers.insert("print");
      return py_call("_print", parts);
    }
    case Intrinsic::kFormat: {
      // `"size mismatch {} != {}".format(k, k2)`: the f-string of an assert message.
      std::vector<std::string> values;
      for (size_t i = 1; i < args.size(); ++i) values.push_back(text(args[i]));
      return py_atom(fmt::format("{}.format({})", text(args[0]), fmt::join(values, ", ")));
    }
    case Intrinsic::kConcat:
    case Intrinsic::kPad:
      return shape_op(node);
    case Intrinsic::kIfElse:
      // Python's own conditional: the condition is known while JAX traces.
      return py_atom(
          fmt::format("({} if {} else {})", text(args[1]), text(args[0]), text(args[2])));
    case Intrinsic::kSortLast: {
      // `_sort_last(value, descending, count, where)` (templates/helper_sort_last.py.tmpl); the
      // place names the source line in its trace-time error for an axis too long to sort.
      imports_.helpers.insert("sort_last");
      const std::string where = source_place(node.range);
      return py_call("_sort_last", {text(args[0]), text(args[1]), text(args[2]), py_string(where)});
    }
    case Intrinsic::kItem: {
      // `_item(x, where, source)` (templates/helper_item.py.tmpl): a concrete Python number,
      // or a precise error while JAX traces.
      imports_.helpers.insert("item");
      return py_call("_item", {text(args[0]), py_string(source_place(node.range)),
                               py_string(std::string(node.range.file->text_of(node.range)))});
    }
    case Intrinsic::kCallParam:
      return call_param(node);
    case Intrinsic::kCallTile:
      imports_.helpers.insert("call_param");
      imports_.numpy = true;
      return py_call("_call_tile", arg_texts());
    case Intrinsic::kTakeAlong:
      // The indices of a partial block's padding may be anything, which only changes padding.
      imports_.helpers.insert("take_along");
      return py_call("_take_along",
                     {text(args[0]), text(args[1]), std::to_string(ir::int_literal(*args[2], 0))});
    case Intrinsic::kWindow:
      return window(node);
    case Intrinsic::kFitBlock:
      return fit_block(node);
    case Intrinsic::kBlockPart: {
      // `_block_part(block, divisor, where)` (templates/helper_block_part.py.tmpl): the groups
      // of a block, an error while the module traces if the divisor does not divide it.
      const auto* attr = node.args[0]->as<ir::TileAttr>();
      if (attr == nullptr) break;
      imports_.helpers.insert("block_part");
      return py_call("_block_part",
                     {text(args[0]), text(args[1]),
                      py_string(fmt::format("{}: {}.block_size", source_place(node.range),
                                            kernel_.tile_dims[attr->tile_dim].name))});
    }
    case Intrinsic::kNextPowerOf2:
      return next_power_of_2(print(args[0]));
    case Intrinsic::kTunable: {
      const auto* index = args[0]->as<ir::IntImm>();
      if (index == nullptr) break;
      if (std::optional<PyExpr> value = context_.tunable(static_cast<int>(index->value))) {
        return *value;
      }
      return unsupported(node, "a tunable's value here");
    }
    default:
      break;
  }
  bool any_array = false;
  for (const ir::ExprPtr& arg : args) any_array |= is_array(arg);
  // Python's min/max cannot compare traced device scalars (`min(tile.end, n)`).
  const bool traced_extremum = (node.op == Intrinsic::kMinimum || node.op == Intrinsic::kMaximum) &&
                               std::any_of(args.begin(), args.end(), [&](const ir::ExprPtr& arg) {
                                 return ir::reads_kernel_values(kernel_, arg);
                               });
  const auto operands = [&] {
    std::vector<PyExpr> printed;
    printed.reserve(args.size());
    for (const ir::ExprPtr& arg : args) printed.push_back(print(arg));
    return printed;
  };
  // The ops table's operations: their spelling on numbers, else the one Mosaic lowers.
  const ops::Operation* operation = ops::find(node.op);
  if (operation != nullptr && !any_array && !traced_extremum && operation->has_scalar_form()) {
    if (uses_math(operation->scalar)) imports_.math = true;
    return op_call(operation->scalar, operands());
  }
  if (node.op == Intrinsic::kRand || node.op == Intrinsic::kRandint ||
      node.op == Intrinsic::kRandn) {
    // Philox (templates/helper_philox.py.tmpl) of the draw's counters.
    const std::string helper(ir::intrinsic_name(node.op));
    imports_.helpers.insert(helper);
    imports_.helpers.insert("philox");
    std::vector<std::string> texts = {draw_counters(args[0]).text};
    for (size_t i = 1; i < args.size(); ++i) texts.push_back(text(args[i]));
    return py_call("_" + helper, texts);
  }
  if (operation != nullptr && !operation->mosaic.empty()) {
    ops::for_each_word(operation->helpers,
                       [&](std::string_view helper) { imports_.helpers.emplace(helper); });
    return op_call(operation->mosaic, operands());
  }
  if (node.op == Intrinsic::kIsNan && context_.in_kernel() && maybe_narrow(*args[0])) {
    imports_.helpers.insert("layout");  // a mask compared from 32-bit values
    return py_call("jnp.isnan", {py_call("_widen", {text(args[0])}).text});
  }
  if (node.op == Intrinsic::kWhere && context_.in_kernel() && maybe_narrow(node)) {
    // A select of values under 32 bits (or of a dtype known only while JAX traces) runs in 32
    // bits (templates/helper_layout.py.tmpl).
    imports_.helpers.insert("layout");
    return py_call("_select", arg_texts());
  }
  if (operation != nullptr) return op_call(operation->jnp, operands());
  if (node.op == Intrinsic::kWhere) return py_call("jnp.where", arg_texts());
  return unsupported(node, fmt::format("`{}`", ir::intrinsic_name(node.op)));
}

std::optional<std::string> ExprContext::block_shape(const ir::Expr& expr) { return std::nullopt; }

PyExpr ExprContext::masked_operand(const ir::Expr& operand, PyExpr value, int axis,
                                   std::string_view identity) {
  return value;
}

passes::Pad ExprContext::padding(const ir::Expr& operand, int axis) {
  return passes::Pad::kGarbage;
}

std::optional<PyExpr> ExprContext::valid_count(const ir::Call& call, int axis) {
  return std::nullopt;
}

std::optional<PyExpr> ExprContext::tile_attr(const ir::TileAttr& attr) { return std::nullopt; }
std::optional<PyExpr> ExprContext::tile_index(int tile_dim, const std::string& shape, int axis) {
  return std::nullopt;
}
bool ExprContext::full_iota_draw(const std::vector<ir::Dim>& dims) { return false; }
std::optional<std::string> ExprContext::block_rows(int tile_dim) { return std::nullopt; }
std::optional<PyExpr> ExprContext::tunable(int index) { return std::nullopt; }

namespace {

// `v[:, None]` for a new axis at `axis`, `v[:, 0]` to drop one.
std::string axis_subscript(const PyExpr& value, int axis, std::string_view item) {
  std::vector<std::string> items(static_cast<size_t>(axis), ":");
  items.emplace_back(item);
  return fmt::format("{}[{}]", py_primary(value), fmt::join(items, ", "));
}

}  // namespace

// Reductions (value, dim-or-None, keepdim) and softmax/log_softmax (value, dim).
// `keep_dims`: keep the reduced axis whatever the call says (a lane row's reduction).
PyExpr ExprPrinter::reduction(const ir::Call& node, bool keep_dims) {
  const ir::ExprPtr& operand = node.args[0];
  PyExpr value = print(operand);
  const bool softmax = node.op == Intrinsic::kSoftmax || node.op == Intrinsic::kLogSoftmax;
  const bool all = !softmax && node.args[1]->kind == ir::ExprKind::kNoneImm;
  const int axis = all ? -1 : ir::int_literal(*node.args[1], 0);
  const bool keep = keep_dims || (!softmax && node.args[2]->as<ir::BoolImm>() &&
                                  node.args[2]->as<ir::BoolImm>()->value);
  std::string_view function;
  std::string_view identity = "0";
  switch (node.op) {
    case Intrinsic::kSum:
      function = "jnp.sum";
      break;
    case Intrinsic::kMean:
      function = "jnp.mean";
      break;
    case Intrinsic::kProd:
      function = "jnp.prod";
      identity = "1";
      break;
    case Intrinsic::kAmax:
      function = "jnp.max";
      identity = "lowest";
      break;
    case Intrinsic::kAmin:
      function = "jnp.min";
      identity = "highest";
      break;
    case Intrinsic::kArgmax:
      function = "jnp.argmax";
      identity = "lowest";
      break;
    case Intrinsic::kArgmin:
      function = "jnp.argmin";
      identity = "highest";
      break;
    case Intrinsic::kSoftmax:
      function = "jax.nn.softmax";
      identity = "lowest";
      break;
    default:
      function = "jax.nn.log_softmax";
      identity = "lowest";
      break;
  }
  if ((softmax || node.op == Intrinsic::kMean) && !operand->type.dtype && context_.in_kernel()) {
    // PyTorch refuses these for integers where jnp promotes them to floats (and a store into
    // an integer output would then truncate every value): `_floating` refuses an integer
    // operand while Pallas traces the kernel, as Helion would at its first call.
    imports_.helpers.insert("floating");
    value =
        py_call("_floating",
                {value.text, double_quoted(fmt::format("torch.{}", ir::intrinsic_name(node.op))),
                 double_quoted(context_.where(node.range))});
  }
  std::optional<PyExpr> count;
  if (!all && operand->type.kind == ir::TypeKind::kTileTensor) {
    // Padding past the loop's range must not reach the result (padding that already holds the
    // reduction's identity does not).
    if (!passes::reduction_accepts(node.op, context_.padding(*operand, axis))) {
      value = context_.masked_operand(*operand, value, axis, identity);
    }
    if (node.op == Intrinsic::kMean) count = context_.valid_count(node, axis);
  }
  if ((node.op == Intrinsic::kArgmax || node.op == Intrinsic::kArgmin) &&
      operand->type.kind == ir::TypeKind::kTileTensor) {
    // Mosaic's argmax/argmin compare 32-bit floats only: the helper widens narrower values
    // (exactly) first.
    function = node.op == Intrinsic::kArgmax ? "_argmax" : "_argmin";
    imports_.helpers.insert(std::string(function.substr(1)));
  }
  std::vector<std::string> call_args = {value.text};
  if (!all) call_args.push_back(fmt::format("axis={}", axis));
  if (keep) call_args.emplace_back("keepdims=True");
  if (count) {
    // The mean of the valid elements: their sum over their number.
    return py_binary("/", py_call("jnp.sum", call_args), *count);
  }
  return py_call(function, call_args);
}

// A matrix product (ir kDot: lhs, lhs_axis, rhs, rhs_axis, batch) in the accumulation dtype.
// With both operand dtypes known here: `jnp.dot` for two matrices, else `jax.lax.dot_general`
// with named dimension numbers, written out (the narrower operand
// cast to the wider one, HIGHEST precision for float32 and float16 operands, which the default
// would round to bfloat16, float32 or int32 accumulation);
// otherwise the `_dot` helper, which takes the same decisions while JAX traces.
PyExpr ExprPrinter::dot(const ir::Call& node) {
  const ir::ExprPtr& lhs = node.args[0];
  const ir::ExprPtr& rhs = node.args[2];
  const int lhs_axis = ir::int_literal(*node.args[1], 0);
  const int rhs_axis = ir::int_literal(*node.args[3], 0);
  // Padding past the loop's range along the contracted axis must not reach the sums: an
  // operand whose padding is not already zero (with finite padding on the other side) is zeroed
  // there (garbage times zero can still be NaN).
  PyExpr a = print(lhs);
  PyExpr b = print(rhs);
  const auto [lhs_fine, rhs_fine] =
      passes::product_accepts(context_.padding(*lhs, lhs_axis), context_.padding(*rhs, rhs_axis));
  if (!lhs_fine) a = context_.masked_operand(*lhs, a, lhs_axis, "0");
  if (!rhs_fine) b = context_.masked_operand(*rhs, b, rhs_axis, "0");
  std::string batch = "((), ())";
  if (const auto* pair = node.args[4]->as<ir::TupleExpr>()) {
    batch = fmt::format("(({},), ({},))", ir::int_literal(*pair->elements[0], 0),
                        ir::int_literal(*pair->elements[1], 0));
  }
  const std::string numbers = fmt::format("((({},), ({},)), {})", lhs_axis, rhs_axis, batch);
  const std::optional<ir::ScalarType> da = lhs->type.dtype;
  const std::optional<ir::ScalarType> db = rhs->type.dtype;
  // 8-bit operands multiply as the TPU the kernel is traced for can (`_dot` decides).
  auto narrow = [](ir::ScalarType t) {
    return t != ir::ScalarType::kBool && ir::dtype_bits(t) == 8;
  };
  if (!da || !db || narrow(*da) || narrow(*db)) {
    imports_.helpers.insert("dot");
    return py_call("_dot", {a.text, b.text, numbers});
  }
  const ir::ScalarType common = ir::promote(*da, *db);
  const std::string common_name(
      ir::jnp_dtype(context_.in_kernel() ? ir::device_dtype(common) : common));
  if (*da != common) a = py_atom(fmt::format("{}.astype({})", py_primary(a), common_name));
  if (*db != common) b = py_atom(fmt::format("{}.astype({})", py_primary(b), common_name));
  // A plain matrix product of two matrices (rows of `a` times columns of `b`, no batch) reads
  // best as `jnp.dot`, which is exactly that dot_general for 2-D operands.
  const bool plain = node.args[4]->as<ir::TupleExpr>() == nullptr && lhs->type.dims.size() == 2 &&
                     rhs->type.dims.size() == 2 && lhs_axis == 1 && rhs_axis == 0;
  std::vector<std::string> call_args = {a.text, b.text};
  if (!plain) call_args.push_back("dimension_numbers=" + numbers);
  if (common == ir::ScalarType::kFloat32 || common == ir::ScalarType::kFloat16) {
    call_args.emplace_back("precision=jax.lax.Precision.HIGHEST");
  }
  call_args.push_back(ir::is_floating(common) ? "preferred_element_type=jnp.float32"
                                              : "preferred_element_type=jnp.int32");
  return py_call(plain ? "jnp.dot" : "jax.lax.dot_general", call_args);
}

// `_window(value, axis, start, size)` (templates/helper_window.py.tmpl), with the rows every
// block must hold when the frontend could not prove the window inside them.
PyExpr ExprPrinter::window(const ir::Call& node) {
  const auto& args = node.args;
  imports_.helpers.insert("window");
  std::vector<std::string> call_args = {text(args[0]), text(args[1]), text(args[2]), text(args[3])};
  const int rows = ir::int_literal(*args[4], 0);
  if (rows > 0) {
    const ir::Dim& dim = args[0]->type.dims[static_cast<size_t>(ir::int_literal(*args[1], 0))];
    const std::optional<std::string> geometry = context_.block_rows(dim.tile_dim);
    if (!geometry) return unsupported(node, "a window of a tile value here");
    const std::string where = source_place(node.range);
    call_args.push_back(fmt::format("rows=({}, {}, {})", *geometry, rows, py_string(where)));
  }
  return py_call("_window", call_args);
}

// `_fit_block(value, axis, size, rows, where)` (templates/helper_fit_block.py.tmpl): a value of
// `size` elements along `axis` stored into the block of the tile the result has there.
PyExpr ExprPrinter::fit_block(const ir::Call& node) {
  const int axis = ir::int_literal(*node.args[1], 0);
  const ir::Dim& dim = node.type.dims[static_cast<size_t>(axis)];
  const std::optional<std::string> geometry = context_.block_rows(dim.tile_dim);
  if (!geometry) return unsupported(node, "a value of a written size stored into a block here");
  imports_.helpers.insert("fit_block");
  const std::string where = source_place(node.range);
  return py_call(
      "_fit_block",
      {text(node.args[0]), std::to_string(axis), text(node.args[2]), fmt::format("({})", *geometry),
       py_string(fmt::format("{}: {}.block_size", where,
                             kernel_.tile_dims[static_cast<size_t>(dim.tile_dim)].name))});
}

// The counters of a random draw (`_rand`, `_randint`, `_randn`) of two or more axes whose shape
// the launch draws once, computed from iotas of the draw's whole block shape, one per tile or
// whole axis and along it (`(tm_start + jax.lax.broadcasted_iota(jnp.int32, (block_m, block_n),
// 0)) * n + ...`), where the source's counters (`rows[:, None] * n + columns`) broadcast 1-D
// indices: with those the TPU compiler keeps Philox's words in VMEM as whole blocks, with
// full-shape iotas it holds none (passes/held_blocks.h has the figures). Draws of one shape
// share their counters, and then hold as much either way: they keep the source's form. The
// same int32 numbers either way. Parts it cannot rebuild (a name the body computes, a load) are
// printed as they are.
PyExpr ExprPrinter::draw_counters(const ir::ExprPtr& counters) {
  const size_t rank = counters->type.dims.size();
  if (!context_.in_kernel() || counters->type.kind != ir::TypeKind::kTileTensor || rank < 2 ||
      !context_.full_iota_draw(counters->type.dims)) {
    return print(counters);
  }
  const std::optional<std::string> shape = context_.block_shape(*counters);
  if (!shape) return print(counters);
  if (std::optional<PyExpr> value = at_full_shape(counters, *shape, rank)) return *value;
  return print(counters);
}

// `expr`, a part of a draw's counters of at most `rank` axes (aligned to the last ones, as JAX
// broadcasts), at the draw's block `shape`; nullopt for a part that is not built of tile
// indices, aranges and arithmetic on them.
std::optional<PyExpr> ExprPrinter::at_full_shape(const ir::ExprPtr& expr, const std::string& shape,
                                                 size_t rank) {
  const ir::Type& type = expr->type;
  if (type.kind != ir::TypeKind::kTileTensor || type.dims.size() > rank) return std::nullopt;
  // An index or an arange with unit axes around it: an iota along its one axis.
  const ir::Expr* leaf = expr.get();
  while (const auto* call = leaf->as<ir::Call>()) {
    if (call->op != Intrinsic::kUnsqueeze) break;
    leaf = call->args[0].get();
  }
  const auto axis = [&]() -> std::optional<int> {
    std::optional<int> found;
    for (size_t d = 0; d < type.dims.size(); ++d) {
      if (type.dims[d].kind == ir::Dim::Kind::kUnit) continue;
      if (found) return std::nullopt;
      found = static_cast<int>(rank - type.dims.size() + d);
    }
    return found;
  };
  if (const auto* attr = leaf->as<ir::TileAttr>(); attr && attr->attr == ir::TileAttrKind::kIndex) {
    const std::optional<int> along = axis();
    if (!along) return std::nullopt;
    return context_.tile_index(attr->tile_dim, shape, *along);
  }
  if (const auto* call = leaf->as<ir::Call>(); call && call->op == Intrinsic::kArange) {
    const auto* dtype = call->args[1]->as<ir::DtypeImm>();
    const std::optional<int> along = axis();
    if (!along || dtype == nullptr || dtype->dtype != ir::ScalarType::kInt32) return std::nullopt;
    return py_call("jax.lax.broadcasted_iota", {"jnp.int32", shape, std::to_string(*along)});
  }
  if (const auto* call = expr->as<ir::Call>(); call && call->op == Intrinsic::kCast) {
    std::optional<PyExpr> value = at_full_shape(call->args[0], shape, rank);
    if (!value) return std::nullopt;
    return py_atom(fmt::format("{}.astype({})", py_primary(*value), text(call->args[1])));
  }
  const auto* binary = expr->as<ir::Binary>();
  if (binary == nullptr || binary->op == ir::BinaryOp::kAnd || binary->op == ir::BinaryOp::kOr ||
      !type.dtype || !ir::is_integral(*type.dtype)) {
    return std::nullopt;
  }
  // Each side at the full shape where it can be, else as printed (JAX broadcasts it); a number
  // as it is.
  std::optional<PyExpr> lhs =
      is_array(binary->lhs) ? at_full_shape(binary->lhs, shape, rank) : std::nullopt;
  std::optional<PyExpr> rhs =
      is_array(binary->rhs) ? at_full_shape(binary->rhs, shape, rank) : std::nullopt;
  if (!lhs && !rhs) return std::nullopt;
  return py_binary(ir::binary_op_spelling(binary->op), lhs ? *lhs : print(binary->lhs),
                   rhs ? *rhs : print(binary->rhs));
}

// Whether `value` is an array whose dtype may be narrower than 32 bits (or known only while JAX
// traces): a mask compared from it, or selecting it, would be laid out for narrow values.
bool ExprPrinter::maybe_narrow(const ir::Expr& value) const {
  return value.type.is_array() && (!value.type.dtype || ir::dtype_bits(*value.type.dtype) < 32);
}

// `jnp.less`, ... for a comparison in a kernel of an array that may be narrower than 32 bits
// (`_compare`), else empty.
std::string_view ExprPrinter::narrow_compare(const ir::Compare& node) const {
  if (!context_.in_kernel() || !(maybe_narrow(*node.lhs) || maybe_narrow(*node.rhs))) return {};
  switch (node.op) {
    case ir::CompareOp::kLt:
      return "jnp.less";
    case ir::CompareOp::kLe:
      return "jnp.less_equal";
    case ir::CompareOp::kGt:
      return "jnp.greater";
    case ir::CompareOp::kGe:
      return "jnp.greater_equal";
    case ir::CompareOp::kEq:
      return "jnp.equal";
    case ir::CompareOp::kNe:
      return "jnp.not_equal";
    default:
      return {};
  }
}

// Whether `value` may be a mask (bool, or of a dtype known only while JAX traces) in device
// code, where Mosaic cannot make some shape casts of masks (templates/helper_layout.py.tmpl).
bool ExprPrinter::maybe_mask(const ir::Expr& value) const {
  if (!context_.in_kernel() || !value.type.is_array()) return false;
  return !value.type.dtype || *value.type.dtype == ir::ScalarType::kBool;
}

// Whether the reshape of `value` to `result` keeps the last axis, by their types (false when
// unknown): only the other axes merge or split then, which Mosaic does in one step.
bool ExprPrinter::keeps_last_axis(const ir::Expr& value, const ir::Expr& result) const {
  const ir::Type& from = value.type;
  const ir::Type& to = result.type;
  if (from.kind != ir::TypeKind::kTileTensor || to.kind != ir::TypeKind::kTileTensor ||
      from.dims.empty() || to.dims.empty()) {
    return false;
  }
  const ir::Dim& last = from.dims.back();
  return last.kind != ir::Dim::Kind::kVariadic && last == to.dims.back();
}

PyExpr ExprPrinter::shape_op(const ir::Call& node) {
  const auto& args = node.args;
  switch (node.op) {
    case Intrinsic::kUnsqueeze: {
      const int axis = ir::int_literal(*args[1], 0);
      const ir::Type& from = args[0]->type;
      // A new last axis moves the old one into the sublanes, which Mosaic cannot do for a mask,
      // nor before TPU v6 for values narrower than 32 bits (templates/helper_layout.py.tmpl);
      // new leading axes it can.
      if (from.kind == ir::TypeKind::kTileTensor && axis == static_cast<int>(from.dims.size()) &&
          context_.in_kernel() && maybe_narrow(*args[0])) {
        imports_.helpers.insert("layout");
        return py_call("_unsqueeze", {text(args[0]), std::to_string(axis)});
      }
      return py_atom(axis_subscript(print(args[0]), axis, "None"));
    }
    case Intrinsic::kSqueeze:
      return py_call("jnp.squeeze",
                     {text(args[0]), fmt::format("axis={}", ir::int_literal(*args[1], 0))});
    case Intrinsic::kPermute: {
      const auto* order = args[1]->as<ir::TupleExpr>();
      if (order && order->elements.size() == 2 && ir::int_literal(*order->elements[0], 0) == 1) {
        return py_atom(py_primary(print(args[0])) + ".T");
      }
      return py_call("jnp.transpose", {text(args[0]), text(args[1])});
    }
    case Intrinsic::kSwapAxes:
      return py_call("jnp.swapaxes", {text(args[0]), text(args[1]), text(args[2])});
    case Intrinsic::kStack: {
      const int axis = ir::int_literal(*args[1], 0);
      std::vector<std::string> values;
      bool narrow_along_new_last_axis = false;  // moved into the sublanes, as by kUnsqueeze
      for (const ir::ExprPtr& value : args[0]->as<ir::TupleExpr>()->elements) {
        values.push_back(text(value));
        narrow_along_new_last_axis |= value->type.kind == ir::TypeKind::kTileTensor &&
                                      axis == static_cast<int>(value->type.dims.size()) &&
                                      maybe_narrow(*value);
      }
      if (context_.in_kernel() && narrow_along_new_last_axis) {
        imports_.helpers.insert("layout");
        return py_call("_stack", {py_tuple(values), std::to_string(axis)});
      }
      return py_call("jnp.stack", {py_tuple(values), fmt::format("axis={}", axis)});
    }
    case Intrinsic::kConcat: {
      std::vector<std::string> values;
      for (const ir::ExprPtr& value : args[0]->as<ir::TupleExpr>()->elements) {
        values.push_back(text(value));
      }
      return py_call("jnp.concatenate",
                     {py_tuple(values), fmt::format("axis={}", ir::int_literal(*args[1], 0))});
    }
    case Intrinsic::kPad: {
      // One padded axis: ((0, 0), ..., (low, high), ..., (0, 0)).
      const int axis = ir::int_literal(*args[1], 0);
      std::vector<std::string> widths;
      for (size_t d = 0; d < args[0]->type.dims.size(); ++d) {
        widths.push_back(static_cast<int>(d) == axis ? py_tuple({text(args[2]), text(args[3])})
                                                     : std::string("(0, 0)"));
      }
      return py_call("jnp.pad", {text(args[0]), py_tuple(widths),
                                 fmt::format("constant_values={}", text(args[4]))});
    }
    case Intrinsic::kReshape: {
      const PyExpr value = print(args[0]);
      const auto* tuple = args[1]->as<ir::TupleExpr>();
      // A list that unpacks a shape (`(*x.shape, n)`) prints as the tuple it is.
      const bool unpacks = tuple && std::any_of(tuple->elements.begin(), tuple->elements.end(),
                                                [](const ir::ExprPtr& size) {
                                                  return size->type.kind == ir::TypeKind::kShape;
                                                });
      std::vector<std::string> sizes;
      if (tuple && !unpacks) {
        for (const ir::ExprPtr& size : tuple->elements) sizes.push_back(text(size));
      }
      if (maybe_mask(*args[0]) || (context_.in_kernel() && !keeps_last_axis(*args[0], node))) {
        // A mask's reshape goes through int32, one that moves elements between the minor axes
        // may need two steps (templates/helper_layout.py.tmpl).
        imports_.helpers.insert("layout");
        return py_call("_reshape",
                       {value.text, tuple && !unpacks ? py_tuple(sizes) : text(args[1])});
      }
      const std::string shape =
          tuple && !unpacks ? fmt::format("{}", fmt::join(sizes, ", ")) : text(args[1]);
      return py_atom(fmt::format("{}.reshape({})", py_primary(value), shape));
    }
    case Intrinsic::kBroadcastTo: {
      const std::optional<std::string> shape = context_.block_shape(node);
      if (!shape) return unsupported(node, "`broadcast_to` here");
      return py_call("jnp.broadcast_to", {text(args[0]), *shape});
    }
    default: {  // kFull
      const std::optional<std::string> shape = context_.block_shape(node);
      if (!shape) return unsupported(node, "`hl.full` here");
      const bool has_dtype = args[1]->kind != ir::ExprKind::kNoneImm;
      const std::string dtype = has_dtype ? text(args[1]) : "jnp.float32";
      if (ir::is_number(*args[0], 0)) return py_call("jnp.zeros", {*shape, dtype});
      return py_call("jnp.full", {*shape, text(args[0]), dtype});
    }
  }
}

}  // namespace helionc::backend::pallas
