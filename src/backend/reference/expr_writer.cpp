#include "backend/reference/expr_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "backend/pallas/scalar_functions.h"
#include "ops/operations.h"

namespace helionc::backend::reference {

using ir::Intrinsic;
using pallas::contiguous_stride_text;
using pallas::host_index_set_text;
using pallas::host_index_text;
using pallas::op_call;
using pallas::Prec;
using pallas::py_atom;
using pallas::py_binary;
using pallas::py_call;
using pallas::py_primary;
using pallas::py_slice;
using pallas::py_tuple;
using pallas::py_unary;

namespace {

bool is_array(const ir::ExprPtr& expr) { return expr->type.is_array(); }

bool is_none(const ir::ExprPtr& expr) { return expr->kind == ir::ExprKind::kNoneImm; }

// Whether bfloat16 and float16 both hold `value` exactly: the number then rounds to itself, and
// `tile * 0.5` needs no widening to agree with PyTorch.
bool exact_in_16_bits(double value) {
  if (value == 0.0 || std::isinf(value)) return true;
  if (std::isnan(value)) return false;
  int exponent = 0;
  const double scaled = std::ldexp(std::frexp(std::fabs(value), &exponent), 8);
  return scaled == std::floor(scaled) && exponent >= -13 && exponent <= 16;
}

// `tile op number` (+ - * /) where the tile may hold 16-bit floats and the number is a Python
// float that 16 bits do not hold: PyTorch keeps the number in float32 there.
bool needs_scalar_opmath(const ir::Binary& node) {
  const bool arith = node.op == ir::BinaryOp::kAdd || node.op == ir::BinaryOp::kSub ||
                     node.op == ir::BinaryOp::kMul || node.op == ir::BinaryOp::kDiv;
  if (!arith) return false;
  const auto narrow = [](const ir::Type& type) {
    return type.is_array() &&
           (!type.dtype || *type.dtype == ir::ScalarType::kBFloat16 ||
            *type.dtype == ir::ScalarType::kFloat16 || ir::is_float8(*type.dtype));
  };
  const auto python_float = [](const ir::ExprPtr& value) {
    if (value->type.kind != ir::TypeKind::kFloat) return false;
    const auto* literal = value->as<ir::FloatImm>();
    return literal == nullptr || !exact_in_16_bits(literal->value);
  };
  return (narrow(node.lhs->type) && python_float(node.rhs)) ||
         (python_float(node.lhs) && narrow(node.rhs->type));
}

}  // namespace

PyExpr ExprWriter::unsupported(const ir::Expr& expr, std::string what) {
  state_.refuse(expr.range, std::move(what));
  return py_atom("None");
}

PyExpr ExprWriter::print(const ir::ExprPtr& expr) {
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
    case ir::ExprKind::kDtypeImm:
      return py_atom(std::string(ir::jnp_dtype(expr->as<ir::DtypeImm>()->dtype)));
    case ir::ExprKind::kVarRef:
      return var(*expr->as<ir::VarRef>());
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
      const bool arrays = is_array(node.lhs) || is_array(node.rhs);
      // A scalar operand of arithmetic on arrays is a number, never a size (tile_attr).
      const auto operand = [&](const ir::ExprPtr& side) {
        const bool number = node.is_number_operand(side);
        numeric_ += number ? 1 : 0;
        PyExpr printed = print(side);
        numeric_ -= number ? 1 : 0;
        return printed;
      };
      const PyExpr lhs = operand(node.lhs);
      const PyExpr rhs = operand(node.rhs);
      if (arrays && node.op == ir::BinaryOp::kAnd) {
        return py_call("jnp.logical_and", {lhs.text, rhs.text});
      }
      if (arrays && node.op == ir::BinaryOp::kOr) {
        return py_call("jnp.logical_or", {lhs.text, rhs.text});
      }
      if (needs_scalar_opmath(node)) {
        const std::string op(ir::binary_op_spelling(node.op));
        return py_call("_ref_scalar_op", {lhs.text, pallas::py_string(op), rhs.text});
      }
      return py_binary(ir::binary_op_spelling(node.op), lhs, rhs);
    }
    case ir::ExprKind::kCompare: {
      const auto& node = *expr->as<ir::Compare>();
      return py_binary(ir::compare_op_spelling(node.op), print(node.lhs), print(node.rhs));
    }
    case ir::ExprKind::kCall:
      return call(*expr->as<ir::Call>());
    case ir::ExprKind::kLoad:
      return load(*expr->as<ir::Load>());
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
    case ir::ExprKind::kTupleGet: {
      const auto& node = *expr->as<ir::TupleGet>();
      return py_atom(fmt::format("{}[{}]", py_primary(print(node.tuple)), node.index));
    }
    case ir::ExprKind::kTileAttr:
      return tile_attr(*expr->as<ir::TileAttr>());
  }
  return unsupported(*expr, "this expression");
}

PyExpr ExprWriter::var(const ir::VarRef& ref) {
  const ir::Type& type = state_.kernel.bindings.at(ref.binding).type;
  if (type.kind != ir::TypeKind::kTile) return py_atom(state_.name(ref.binding));
  // A tile used as a value: its dimensions' locals.
  std::vector<std::string> tiles;
  for (int dim : type.tile_dims) tiles.push_back(state_.tile(dim, ref.range));
  if (tiles.size() == 1) return py_atom(tiles[0]);
  return py_atom(py_tuple(tiles));
}

PyExpr ExprWriter::tile_attr(const ir::TileAttr& node) {
  const std::string tile = state_.tile(node.tile_dim, node.range);
  const ir::TileDim& dim = state_.dim(node.tile_dim);
  const std::string_view name = ir::tile_attr_name(node.attr);
  if (node.attr == ir::TileAttrKind::kId || node.attr == ir::TileAttrKind::kCount) {
    // Block numbers and counts exist only where there are blocks: where the source fixes the
    // block size (`_ref_tiles` numbers its tiles, as Helion does: the tile's begin over the
    // block, also for a paired loop's tiles, which start at its begin).
    if (state_.stepped_block(dim) && !dim.variadic && !state_.is_grid(node.tile_dim)) {
      return py_atom(fmt::format("{}.{}", tile, name));
    }
    return unsupported(node, fmt::format("`{}.{}`: the config chooses this tile's block size, and "
                                         "the reference has none (each such tile is its loop's "
                                         "whole range)",
                                         dim.name, name));
  }
  if (dim.variadic) {
    return unsupported(node, fmt::format("`.{}` of a tile of `hl.tile(x.size())`", name));
  }
  if (state_.is_grid(node.tile_dim)) {
    // An `hl.grid` index is the loop's int: its one-element tile starts there.
    switch (node.attr) {
      case ir::TileAttrKind::kBegin:
        return py_atom(tile);
      case ir::TileAttrKind::kEnd:
        return py_binary("+", py_atom(tile), py_atom("1"));
      case ir::TileAttrKind::kBlockSize:
        return py_atom("1");
      default:
        return py_call("jnp.array", {fmt::format("[{}]", tile), "jnp.int32"});
    }
  }
  if (node.attr == ir::TileAttrKind::kBlockSize && numeric_ > 0 && state_.stepped_block(dim)) {
    // A number in arithmetic on arrays (`x[tile] / tile.block_size`): the block (Helion's), also
    // on the reference's partial last tile (`_ref_tiles`). Elsewhere the attribute sizes the
    // tile's values (a window's rows, a view's sizes, the frontend's and the source's alike),
    // which that tile holds fewer of: its extent, `block_size`.
    return py_atom(tile + ".block");
  }
  return py_atom(fmt::format("{}.{}", tile, name));
}

std::string ExprWriter::shape_of(const ir::Type& type, SourceRange range) {
  std::vector<std::string> sizes;
  for (const ir::Dim& dim : type.dims) {
    switch (dim.kind) {
      case ir::Dim::Kind::kTile:
        sizes.push_back(
            state_.is_grid(dim.tile_dim) ? "1" : state_.tile(dim.tile_dim, range) + ".block_size");
        break;
      case ir::Dim::Kind::kFull:
        sizes.push_back(fmt::format("{}.shape[{}]", state_.name(dim.binding), dim.axis));
        break;
      case ir::Dim::Kind::kSlice:
        // Python's slice of the axis's positions: its length with clamping and negatives.
        sizes.push_back(fmt::format("len(range({}.shape[{}])[{}])", state_.name(dim.binding),
                                    dim.axis, slice_bounds(dim.slice).first));
        break;
      case ir::Dim::Kind::kUnit:
        sizes.emplace_back("1");
        break;
      case ir::Dim::Kind::kLiteral:
        sizes.push_back(std::to_string(dim.extent));
        break;
      case ir::Dim::Kind::kComputed:
        sizes.push_back(text(state_.kernel.computed_sizes[static_cast<size_t>(dim.size)].value));
        break;
      case ir::Dim::Kind::kTilePart:
        // Divisible: the block was checked where the value was made (`_block_part`).
        sizes.push_back(fmt::format(
            "{} // {}",
            state_.is_grid(dim.tile_dim) ? "1" : state_.tile(dim.tile_dim, range) + ".block_size",
            dim.extent));
        break;
      case ir::Dim::Kind::kVariadic:
        sizes.push_back("*" + state_.tile(dim.tile_dim, range) + ".shape");
        break;
    }
  }
  if (sizes.size() == 1 && sizes[0].starts_with("*")) return py_tuple({sizes[0]});
  return py_tuple(sizes);
}

// `16:n` and `slice(16, n)` for Kernel::slices[slice].
std::pair<std::string, std::string> ExprWriter::slice_bounds(int slice) {
  const ir::SliceBounds& bounds = state_.kernel.slices[static_cast<size_t>(slice)];
  const std::string start = bounds.start ? text(bounds.start) : "";
  const std::string stop = bounds.stop ? text(bounds.stop) : "";
  return {
      fmt::format("{}:{}", start, stop),
      fmt::format("slice({}, {})", start.empty() ? "None" : start, stop.empty() ? "None" : stop)};
}

ExprWriter::Item ExprWriter::item(const ir::IndexItem& entry, SourceRange range) {
  const SourceRange where = entry.range.valid() ? entry.range : range;
  switch (entry.kind) {
    case ir::IndexItem::Kind::kTile: {
      const std::string tile = state_.tile(entry.tile_dim, where);
      if (state_.is_grid(entry.tile_dim)) return {tile, tile};
      return {fmt::format("{}.begin:{}.end", tile, tile),
              fmt::format("slice({}.begin, {}.end)", tile, tile)};
    }
    case ir::IndexItem::Kind::kVariadic: {
      const std::string tile = state_.tile(entry.tile_dim, where);
      return {tile + ".slices", "*" + tile + ".slices"};
    }
    case ir::IndexItem::Kind::kFull:
    case ir::IndexItem::Kind::kGather:  // applied apart (load, store_subscript)
      return {":", "slice(None)"};
    case ir::IndexItem::Kind::kSlice: {
      auto [text, call] = slice_bounds(entry.slice);
      return {text, call};
    }
    case ir::IndexItem::Kind::kNewAxis:
      return {"None", "None"};
    case ir::IndexItem::Kind::kScalar: {
      const std::string value = text(entry.scalar);
      return {value, value};
    }
  }
  return {":", "slice(None)"};
}

ExprWriter::Subscript ExprWriter::subscript(const ir::Index& index, SourceRange range) {
  Subscript result;
  std::vector<std::string> items;
  std::vector<std::string> tuple_items;
  for (size_t i = 0; i < index.size(); ++i) {
    if (index[i].kind == ir::IndexItem::Kind::kGather)
      result.gathers.emplace_back(i, index[i].scalar);
    result.variadic |= index[i].kind == ir::IndexItem::Kind::kVariadic;
    Item text = item(index[i], range);
    items.push_back(std::move(text.in_subscript));
    tuple_items.push_back(std::move(text.in_tuple));
  }
  if (!result.variadic) {
    result.text = items.empty() ? "[()]" : fmt::format("[{}]", fmt::join(items, ", "));
  } else if (index.size() == 1) {
    result.text = fmt::format("[{}]", items[0]);  // `x[tile.slices]`
  } else {
    // A spread tile needs a tuple display, where slices are spelled `slice(a, b)`.
    result.text = fmt::format("[({},)]", fmt::join(tuple_items, ", "));
  }
  return result;
}

PyExpr ExprWriter::load(const ir::Load& node) {
  const PyExpr tensor = print(node.tensor);
  const Subscript sub = subscript(node.index, node.range);
  PyExpr value = py_atom(py_primary(tensor) + sub.text);
  // Gathers from the last to the first, so the axes before each are where the subscript left
  // them: an axis per item before it, except scalar items (and the grid's ints), which drop
  // theirs.
  for (auto it = sub.gathers.rbegin(); it != sub.gathers.rend(); ++it) {
    const auto [position, ids] = *it;
    int axis = 0;
    bool variadic_before = false;
    for (size_t i = 0; i < position; ++i) {
      const ir::IndexItem& item = node.index[i];
      if (item.kind == ir::IndexItem::Kind::kVariadic) variadic_before = true;
      const bool dropped =
          item.kind == ir::IndexItem::Kind::kScalar ||
          (item.kind == ir::IndexItem::Kind::kTile && state_.is_grid(item.tile_dim));
      if (!dropped) ++axis;
    }
    if (variadic_before) {
      return unsupported(node, "a gather after a tile of `hl.tile(x.size())` in one subscript");
    }
    value = py_call("_ref_gather", {value.text, std::to_string(axis), text(ids)});
  }
  return value;
}

std::string ExprWriter::store_subscript(const ir::Store& store) {
  const Subscript sub = subscript(store.index, store.range);
  if (sub.gathers.empty()) return sub.text;
  bool scalar = false;
  for (const ir::IndexItem& entry : store.index) {
    scalar |= entry.kind == ir::IndexItem::Kind::kScalar ||
              (entry.kind == ir::IndexItem::Kind::kTile && state_.is_grid(entry.tile_dim));
  }
  // Two 1-D tiles of indices into both axes of a 2-D array index the cartesian product, as in
  // Helion (the Pallas backend's passes::cartesian_scatter): NumPy's pairwise indexing
  // broadcast to it.
  if (sub.gathers.size() == 2 && store.index.size() == 2 &&
      store.index[0].scalar->type.dims.size() == 1 &&
      store.index[1].scalar->type.dims.size() == 1 && !store.index[0].scalar->type.variadic &&
      !store.index[1].scalar->type.variadic) {
    return fmt::format("[{}[:, None], {}[None, :]]", py_primary(print(store.index[0].scalar)),
                       py_primary(print(store.index[1].scalar)));
  }
  // One index array among slices keeps its place in NumPy's indexing; with ints, a spread tile
  // or a second array its dimensions would move.
  if (sub.gathers.size() > 1 || scalar || sub.variadic) {
    state_.refuse(store.range,
                  "a store through an index tensor together with another index array, a scalar "
                  "index or a tile of `hl.tile(x.size())`");
    return "[...]";
  }
  std::vector<std::string> parts;
  for (const ir::IndexItem& entry : store.index) {
    parts.push_back(entry.kind == ir::IndexItem::Kind::kGather
                        ? text(entry.scalar)
                        : item(entry, store.range).in_subscript);
  }
  return fmt::format("[{}]", fmt::join(parts, ", "));
}

PyExpr ExprWriter::call(const ir::Call& node) {
  const auto& args = node.args;
  auto arg_texts = [&] {
    std::vector<std::string> texts;
    texts.reserve(args.size());
    for (const ir::ExprPtr& arg : args) texts.push_back(text(arg));
    return texts;
  };
  if (node.op == Intrinsic::kDot) {
    std::string batch = "None";
    if (const auto* pair = args[4]->as<ir::TupleExpr>()) {
      batch = py_tuple({text(pair->elements[0]), text(pair->elements[1])});
    }
    return py_call("_ref_dot", {text(args[0]), text(args[1]), text(args[2]), text(args[3]), batch});
  }
  if (node.op == Intrinsic::kScan || node.op == Intrinsic::kCombineReduce) {
    // The combine as a lambda over its hidden parameters (templates/reference_prelude.py.tmpl).
    std::vector<std::string> params;
    for (const ir::ExprPtr& param : args[3]->as<ir::TupleExpr>()->elements) {
      params.push_back(text(param));
    }
    const std::string combine =
        fmt::format("lambda {}: {}", fmt::join(params, ", "), text(args[4]));
    return py_call(node.op == Intrinsic::kScan ? "_ref_scan" : "_ref_combine_reduce",
                   {combine, text(args[0]), text(args[1]), text(args[2])});
  }
  if (ir::reduces_along_axis(node.op)) return reduction(node);
  switch (node.op) {
    case Intrinsic::kDtypeOf:
      return py_atom(py_primary(print(args[0])) + ".dtype");
    case Intrinsic::kShapeOf:
      return py_atom(py_primary(print(args[0])) + ".shape");
    case Intrinsic::kSize:
      return py_atom(fmt::format("{}.shape[{}]", py_primary(print(args[0])), text(args[1])));
    case Intrinsic::kNumel:
      return py_atom(py_primary(print(args[0])) + ".size");
    case Intrinsic::kNdim:
      return py_atom(py_primary(print(args[0])) + ".ndim");
    case Intrinsic::kLen:  // a list of sizes given as an argument
      return py_call("len", {print(args[0]).text});
    case Intrinsic::kHostIndex:
      return py_atom(host_index_text(node, py_primary(print(args[0])),
                                     [&](const ir::ExprPtr& value) { return text(value); }));
    case Intrinsic::kHostIndexSet:
      return py_atom(host_index_set_text(node, py_primary(print(args[0])),
                                         [&](const ir::ExprPtr& value) { return text(value); }));
    case Intrinsic::kStride: {
      state_.math = true;
      const auto* axis = args[1]->as<ir::IntImm>();
      return py_atom(contiguous_stride_text(
          py_primary(print(args[0])), axis ? std::optional<int64_t>(axis->value) : std::nullopt));
    }
    case Intrinsic::kShapeSlice: {  // (shape, start-or-None, stop-or-None)
      const auto bound = [&](const ir::ExprPtr& value) {
        return value->kind == ir::ExprKind::kNoneImm ? std::string() : text(value);
      };
      return py_slice(print(args[0]), bound(args[1]), bound(args[2]));
    }
    case Intrinsic::kPromoteTypes:
      return py_call("jnp.promote_types", arg_texts());
    case Intrinsic::kBroadcastTensors:
      return py_call("tuple", {py_call("jnp.broadcast_arrays", arg_texts()).text});
    case Intrinsic::kCast: {
      const PyExpr value = print(args[0]);
      const std::string dtype = text(args[1]);
      if (is_array(args[0])) return py_atom(fmt::format("{}.astype({})", py_primary(value), dtype));
      return py_call("jnp.asarray", {value.text, dtype});
    }
    case Intrinsic::kFullLike: {
      std::vector<std::string> call_args = {text(args[0]), text(args[1])};
      if (!is_none(args[2])) call_args.push_back("dtype=" + text(args[2]));
      return py_call("jnp.full_like", call_args);
    }
    case Intrinsic::kClamp:
      return py_call("jnp.clip", arg_texts());
    case Intrinsic::kRand:
      return py_call("_ref_rand", arg_texts());
    case Intrinsic::kRandint:
      return py_call("_ref_randint", arg_texts());
    case Intrinsic::kRandn:
      return py_call("_ref_randn", arg_texts());
    case Intrinsic::kArange:
      return py_call("jnp.arange", {text(args[0]), "dtype=" + text(args[1])});
    case Intrinsic::kItem:
      // A concrete Python number: like a bound read from a tensor, it makes the reference run
      // eagerly (JAX raises its ConcretizationTypeError under `jax.jit`).
      return py_atom(fmt::format("{}.item()", py_primary(print(args[0]))));
    case Intrinsic::kNextPowerOf2:
      return pallas::next_power_of_2(print(args[0]));
    case Intrinsic::kTunable: {
      // The reference takes no config: a tunable has the value of the decorator's (first)
      // config, else its fragment's default, as in Helion's ref mode.
      const auto* index = args[0]->as<ir::IntImm>();
      if (index == nullptr) break;
      const ir::UserTunable& tunable = state_.kernel.user_tunables[index->value];
      int64_t value = tunable.default_value;
      if (!state_.kernel.builtin_configs.empty()) {
        const auto& given = state_.kernel.builtin_configs.front().other_keys;
        if (auto it = given.find(tunable.name); it != given.end()) value = it->second.first;
      }
      if (tunable.kind == ir::UserTunable::Kind::kBoolean) {
        return py_atom(value != 0 ? "True" : "False");
      }
      return py_atom(std::to_string(value));
    }
    case Intrinsic::kBlockPart:
      // Divisible: a tunable tile's one block is its whole range, whose length the module
      // checks before the launch, and a block the source fixes is checked by helionc.
      return py_atom(fmt::format("{} // {}", text(args[0]), text(args[1])));
    case Intrinsic::kBlockValue: {
      // The reference takes no config: a registered block size read as a value is its bound
      // (`hl.register_block_size(m)`: m), and its loops step over tiles of that size, as a
      // block size fixed in the source does (function_printer).
      const auto* index = args[0]->as<ir::IntImm>();
      if (index == nullptr) break;
      return print(state_.kernel.tunable_block_ranges.at(static_cast<size_t>(index->value)).max);
    }
    case Intrinsic::kWindow: {
      std::vector<std::string> window_args = {text(args[0]), text(args[1]), text(args[2]),
                                              text(args[3])};
      if (const int rows = ir::int_literal(*args[4], 0); rows > 0) {
        const SourceFile& file = *node.range.file;
        window_args.push_back(std::to_string(rows));
        window_args.push_back(pallas::py_string(
            fmt::format("{}:{}", state_.source_path, file.line_column(node.range.begin).line)));
      }
      return py_call("_ref_window", window_args);
    }
    case Intrinsic::kFitBlock: {
      // The tile steps by the size (FunctionState::stepped_block): its last block may be
      // shorter, and the store keeps the value's first elements there.
      const int axis = ir::int_literal(*args[1], 0);
      const ir::Dim& dim = node.type.dims[static_cast<size_t>(axis)];
      const std::string tile = state_.tile(dim.tile_dim, node.range);
      return py_call(
          "jax.lax.slice_in_dim",
          {text(args[0]), "0", fmt::format("{}.block_size", tile), fmt::format("axis={}", axis)});
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
    case Intrinsic::kCallParam: {
      // templates/reference_callables.py.tmpl; a tile value's type gives the shape, a host
      // array's (a call after the kernel, frontend/hoist_callables.cpp) is the first argument's.
      state_.callables = true;
      const std::string shape =
          node.type.kind == ir::TypeKind::kTileTensor ? shape_of(node.type, node.range) : "None";
      const SourceFile& file = *node.range.file;
      return py_call(
          "_ref_call_param",
          {text(args[0]), text(args[1]), shape, text(args[2]),
           pallas::py_string(
               fmt::format("{}:{}", state_.source_path, file.line_column(node.range.begin).line)),
           pallas::py_string(state_.kernel.bindings[args[0]->as<ir::VarRef>()->binding].name)});
    }
    case Intrinsic::kCallTile: {
      // The loop's tile itself (`_ref_call_tile` reads its attributes; a tunable tile has no
      // block number but the one block 0). A whole-axis tile of a call after the kernel has
      // begin 0 and its loop's extent as end and block size.
      state_.callables = true;
      if (const auto* begin = args[0]->as<ir::TileAttr>()) {
        return py_call("_ref_call_tile", {state_.tile(begin->tile_dim, node.range)});
      }
      return py_call("_ref_whole_tile", {text(args[1])});
    }
    case Intrinsic::kPrint: {
      std::vector<std::string> parts;
      for (const ir::ExprPtr& arg : args) parts.push_back(text(arg));
      return py_call("_ref_print", parts);
    }
    case Intrinsic::kFormat: {
      // `"size mismatch {} != {}".format(k, k2)`: the f-string of an assert message.
      std::vector<std::string> values;
      for (size_t i = 1; i < args.size(); ++i) values.push_back(text(args[i]));
      return py_atom(fmt::format("{}.format({})", text(args[0]), fmt::join(values, ", ")));
    }
    case Intrinsic::kConcat: {
      std::vector<std::string> values;
      for (const ir::ExprPtr& value : args[0]->as<ir::TupleExpr>()->elements) {
        values.push_back(text(value));
      }
      return py_call("jnp.concatenate", {pallas::py_tuple(values),
                                         fmt::format("axis={}", ir::int_literal(*args[1], 0))});
    }
    case Intrinsic::kPad: {
      const int axis = ir::int_literal(*args[1], 0);
      std::vector<std::string> widths;
      for (size_t d = 0; d < args[0]->type.dims.size(); ++d) {
        widths.push_back(static_cast<int>(d) == axis
                             ? pallas::py_tuple({text(args[2]), text(args[3])})
                             : std::string("(0, 0)"));
      }
      return py_call("jnp.pad", {text(args[0]), pallas::py_tuple(widths),
                                 fmt::format("constant_values={}", text(args[4]))});
    }
    case Intrinsic::kIfElse:
      // Python's own conditional: the condition is known while JAX traces.
      return py_atom(
          fmt::format("({} if {} else {})", text(args[1]), text(args[0]), text(args[2])));
    case Intrinsic::kSortLast:
      return py_call("_ref_sort_last", arg_texts());
    case Intrinsic::kTakeAlong:
      return py_call("jnp.take_along_axis", {text(args[0]), text(args[1]),
                                             fmt::format("axis={}", ir::int_literal(*args[2], 0))});
    default:
      break;
  }
  bool any_array = false;
  for (const ir::ExprPtr& arg : args) any_array |= is_array(arg);
  // The ops table's operations: their spelling on numbers, else on arrays. Everything runs
  // through XLA on the host, so nothing needs the helpers the Pallas module uses for Mosaic.
  if (const ops::Operation* operation = ops::find(node.op)) {
    std::vector<PyExpr> operands;
    for (const ir::ExprPtr& arg : args) operands.push_back(print(arg));
    if (any_array || !operation->has_scalar_form()) return op_call(operation->jnp, operands);
    if (pallas::uses_math(operation->scalar)) state_.math = true;
    return op_call(operation->scalar, operands);
  }
  if (node.op == Intrinsic::kWhere) {
    return filled_blocks(node, py_call("jnp.where", arg_texts()));
  }
  return unsupported(node, fmt::format("`{}`", ir::intrinsic_name(node.op)));
}

// The select the frontend puts where a value over the tile of a loop stepped by a registered
// block meets a value of that block's size (adopt_block_dims: `acc += x[tile_m, tile_n]` with
// `acc = hl.zeros([tile_m, block_n])`) has the block's dimension where its value has the tile's.
// The kernel's tile is a whole block there, its lanes past the loop's end zeros; the
// reference's last tile is partial, so the select's result is widened to the block with zeros.
PyExpr ExprWriter::filled_blocks(const ir::Call& node, PyExpr printed) {
  const ir::ExprPtr& value = node.args[1];
  if (!is_array(value) || value->type.dims.size() != node.type.dims.size()) return printed;
  for (size_t axis = 0; axis < node.type.dims.size(); ++axis) {
    const ir::Dim& mine = value->type.dims[axis];
    const ir::Dim& theirs = node.type.dims[axis];
    if (mine.kind == ir::Dim::Kind::kTile && theirs.kind == ir::Dim::Kind::kTile &&
        mine.tile_dim != theirs.tile_dim) {
      // Paired tiles (frontend/lower_paired_tiles.cpp: `x[tile_i] * y[tile_j]`, blocks fixed in
      // the source, tiles from the loop's begin): row r of tile_j's block meets row r of
      // tile_i's; tile_j's rows past the loop's end are zeros, so its tile is widened to the
      // block with zeros and cut to tile_i's rows.
      const ir::ExprPtr block = state_.stepped_block(state_.dim(mine.tile_dim));
      if (block == nullptr) continue;  // refused (function_printer)
      printed = py_call(
          "jax.lax.slice_in_dim",
          {py_call("_ref_fill_block", {printed.text, std::to_string(axis), text(block)}).text, "0",
           state_.tile(theirs.tile_dim, node.range) + ".block_size", fmt::format("axis={}", axis)});
      continue;
    }
    if (mine.kind != ir::Dim::Kind::kTile || theirs.kind != ir::Dim::Kind::kComputed ||
        state_.is_grid(mine.tile_dim) || !state_.stepped_block(state_.dim(mine.tile_dim))) {
      continue;
    }
    printed = py_call("_ref_fill_block",
                      {printed.text, std::to_string(axis),
                       text(state_.kernel.computed_sizes[static_cast<size_t>(theirs.size)].value)});
  }
  return printed;
}

// Reductions (value, dim-or-None, keepdim) and softmax/log_softmax (value, dim).
PyExpr ExprWriter::reduction(const ir::Call& node) {
  const PyExpr value = print(node.args[0]);
  const bool softmax = node.op == Intrinsic::kSoftmax || node.op == Intrinsic::kLogSoftmax;
  const bool all = !softmax && is_none(node.args[1]);
  const auto* keep = softmax ? nullptr : node.args[2]->as<ir::BoolImm>();
  std::string_view function;
  switch (node.op) {
    case Intrinsic::kSum:
      function = "jnp.sum";
      break;
    case Intrinsic::kMean:
      function = "jnp.mean";
      break;
    case Intrinsic::kProd:
      function = "jnp.prod";
      break;
    case Intrinsic::kAmax:
      function = "jnp.max";
      break;
    case Intrinsic::kAmin:
      function = "jnp.min";
      break;
    case Intrinsic::kArgmax:
      function = "jnp.argmax";
      break;
    case Intrinsic::kArgmin:
      function = "jnp.argmin";
      break;
    case Intrinsic::kSoftmax:
      function = "jax.nn.softmax";
      break;
    default:
      function = "jax.nn.log_softmax";
      break;
  }
  std::vector<std::string> call_args = {value.text};
  if (!all) call_args.push_back(fmt::format("axis={}", ir::int_literal(*node.args[1], 0)));
  if (keep != nullptr && keep->value) call_args.emplace_back("keepdims=True");
  return py_call(function, call_args);
}

PyExpr ExprWriter::shape_op(const ir::Call& node) {
  const auto& args = node.args;
  switch (node.op) {
    case Intrinsic::kUnsqueeze:
      return py_call("jnp.expand_dims",
                     {text(args[0]), std::to_string(ir::int_literal(*args[1], 0))});
    case Intrinsic::kSqueeze:
      return py_call("jnp.squeeze",
                     {text(args[0]), fmt::format("axis={}", ir::int_literal(*args[1], 0))});
    case Intrinsic::kPermute:
      return py_call("jnp.transpose", {text(args[0]), text(args[1])});
    case Intrinsic::kSwapAxes:
      return py_call("jnp.swapaxes", {text(args[0]), text(args[1]), text(args[2])});
    case Intrinsic::kStack: {
      std::vector<std::string> values;
      for (const ir::ExprPtr& value : args[0]->as<ir::TupleExpr>()->elements) {
        values.push_back(text(value));
      }
      return py_call("jnp.stack", {pallas::py_tuple(values),
                                   fmt::format("axis={}", ir::int_literal(*args[1], 0))});
    }
    case Intrinsic::kReshape: {
      const PyExpr value = print(args[0]);
      const auto* tuple = args[1]->as<ir::TupleExpr>();
      // A list that unpacks a shape (`(*x.shape, n)`) prints as the tuple it is.
      const bool unpacks = tuple && std::any_of(tuple->elements.begin(), tuple->elements.end(),
                                                [](const ir::ExprPtr& size) {
                                                  return size->type.kind == ir::TypeKind::kShape;
                                                });
      if (tuple && !unpacks) {
        std::vector<std::string> sizes;
        for (const ir::ExprPtr& size : tuple->elements) sizes.push_back(text(size));
        return py_atom(fmt::format("{}.reshape({})", py_primary(value), py_tuple(sizes)));
      }
      return py_atom(fmt::format("{}.reshape({})", py_primary(value), text(args[1])));
    }
    case Intrinsic::kBroadcastTo:
      return py_call("jnp.broadcast_to", {text(args[0]), shape_of(node.type, node.range)});
    default: {  // kFull: the result type holds the shape
      const std::string dtype = is_none(args[1]) ? "jnp.float32" : text(args[1]);
      return py_call("jnp.full", {shape_of(node.type, node.range), text(args[0]), dtype});
    }
  }
}

}  // namespace helionc::backend::reference
