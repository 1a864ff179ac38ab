// `for tile_k in hl.jagged_tile(lengths)`: a tile loop whose extent differs per lane of the
// enclosing tiles. `lengths` is a tile of integers whose every axis is an enclosing tile
// (`lengths = row_lengths[tile_b]`); lane `b` of it is the end of the loop for row `b`.
//
// On a TPU one kernel step computes a whole block of rows in lock step, so the loop runs to
// the longest row of the block (the lengths' maximum) and every row masks the indices past
// its own end: tile_k's dimension has that maximum as its extent (the ordinary masks of a
// loop bounded in the kernel keep the indices below it), and
//   * a load whose value has tile_k's axis reads 0 where `tile_k.index >= lengths` (a gather
//     through indices past a row's end, which may point into the next row or past the array,
//     reads 0 too),
//   * a store whose block has tile_k's axis keeps the old elements there,
//   * a sum (prod, amax, amin) along tile_k's axis reduces only the row's own elements (so
//     `exp(x).sum(...)`, whose masked zeros became ones, is still right).
// Scalar prefetch of per-block bounds would skip the masked work but needs the lengths on the
// host before the launch; the mask keeps the lengths a device value like any other.
// The masks are ordinary IR (compares and selects), so the strategies and the reference
// backend need nothing of their own.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::Dim;
using ir::ExprPtr;
using ir::Intrinsic;
using ir::Type;
using ir::TypeKind;

std::vector<int> KernelLowering::lower_jagged_tile_spec(const SyntaxNode& call) {
  const SourceRange range = call.range();
  if (!in_device()) {
    fail(DiagnosticKind::kUnsupported, range,
         "`hl.jagged_tile` cannot be the outermost loop of a kernel: its lengths are read per "
         "row of an enclosing tile; nest it in `for tile_b in hl.tile(...)` and pass "
         "`lengths[tile_b]`");
  }
  const CallArgs args = split_args(call);
  check_arity(args, "hl.jagged_tile", 1, 1, {});
  const SyntaxNode arg = args.positional[0];
  ExprPtr lengths = lower_expr(arg);
  const Type& type = lengths->type;
  const bool tiles_only = type.kind == TypeKind::kTileTensor && !type.variadic &&
                          type.tile_rank() >= 1 &&
                          std::all_of(type.dims.begin(), type.dims.end(),
                                      [](const Dim& dim) { return dim.kind == Dim::Kind::kTile; });
  if (!tiles_only) {
    fail(DiagnosticKind::kTypeMismatch, arg.range(),
         fmt::format("`hl.jagged_tile` takes a tile of lengths whose every axis is an enclosing "
                     "tile (`lengths[tile_b]`), not {}; for one bound for all rows use "
                     "`hl.tile`",
                     describe(type)));
  }
  if (type.dtype && !ir::is_integral(*type.dtype)) {
    fail(DiagnosticKind::kTypeMismatch, arg.range(),
         fmt::format("the lengths of `hl.jagged_tile` must be integers, not `{}`",
                     ir::dtype_name(*type.dtype)));
  }
  // The loop's extent: the longest row of the enclosing block. (The reduction masks the
  // rows past the end of a partial outer block; the cast keeps it an int32 bound whatever
  // fill that mask used.)
  ExprPtr longest = lengths;
  for (int axis = type.tile_rank() - 1; axis >= 0; --axis) {
    std::vector<Dim> dims = longest->type.dims;
    dims.erase(dims.begin() + axis);
    longest = ir::Call::make(
        Intrinsic::kAmax, {longest, ir::IntImm::make(axis, range), ir::BoolImm::make(false, range)},
        Type::tile_tensor(std::move(dims), type.dtype), range);
  }
  ExprPtr extent =
      ir::Call::make(Intrinsic::kCast, {longest, ir::DtypeImm::make(ir::ScalarType::kInt32, range)},
                     Type::tile_tensor({}, ir::ScalarType::kInt32), range);
  const int dim = new_tile_dim(fmt::format("tile_{}", kernel_.tile_dims.size()), nullptr,
                               std::move(extent), ir::BlockSource{}, false, range);
  kernel_.tile_dims[static_cast<size_t>(dim)].jagged = true;
  jagged_lengths_[dim] = std::move(lengths);
  return {dim};
}

ExprPtr KernelLowering::jagged_mask(const std::vector<Dim>& dims, int jagged_dim,
                                    SourceRange range) {
  const ExprPtr& lengths = jagged_lengths_.at(jagged_dim);
  const auto position = [&](int tile_dim) {
    const auto it = std::find(dims.begin(), dims.end(), Dim::tile(tile_dim));
    return it == dims.end() ? -1 : static_cast<int>(it - dims.begin());
  };
  // Where each axis of the lengths lands among `dims`, in order.
  std::vector<int> parent_positions;
  for (const Dim& dim : lengths->type.dims) {
    const int at = position(dim.tile_dim);
    if (at < 0 || (!parent_positions.empty() && at <= parent_positions.back())) {
      std::string parents;
      for (const Dim& parent : lengths->type.dims) {
        parents += fmt::format("{}`{}`", parents.empty() ? "" : ", ",
                               kernel_.tile_dims[parent.tile_dim].name);
      }
      fail(DiagnosticKind::kUnsupported, range,
           fmt::format("the jagged tile `{}` is used here without the tiles of its lengths ({}) "
                       "in the same order: each row has its own end, so index with them "
                       "together (`x[tile_b, {}]`)",
                       kernel_.tile_dims[jagged_dim].name, parents,
                       kernel_.tile_dims[jagged_dim].name));
    }
    parent_positions.push_back(at);
  }
  // `tile_k.index` and the lengths, each with unit axes where the other dims are.
  ExprPtr index =
      ir::TileAttr::make(jagged_dim, ir::TileAttrKind::kIndex,
                         Type::tile_tensor({Dim::tile(jagged_dim)}, ir::ScalarType::kInt32), range);
  const int at = position(jagged_dim);
  for (int axis = 0; axis < at; ++axis) index = make_unsqueeze(index, 0, range);
  while (index->type.dims.size() < dims.size()) {
    index = make_unsqueeze(index, static_cast<int>(index->type.dims.size()), range);
  }
  ExprPtr ends = lengths;
  for (int axis = 0; axis < static_cast<int>(dims.size()); ++axis) {
    if (std::find(parent_positions.begin(), parent_positions.end(), axis) ==
        parent_positions.end()) {
      ends = make_unsqueeze(ends, axis, range);
    }
  }
  Type type = combine_types(*index, *ends, ArithKind::kComparison, range);
  return ir::Compare::make(ir::CompareOp::kLt, std::move(index), std::move(ends), std::move(type),
                           range);
}

std::vector<int> KernelLowering::jagged_dims_of(const std::vector<Dim>& dims) const {
  std::vector<int> found;
  for (const Dim& dim : dims) {
    if (dim.kind == Dim::Kind::kTile && jagged_lengths_.count(dim.tile_dim)) {
      found.push_back(dim.tile_dim);
    }
  }
  return found;
}

ExprPtr KernelLowering::mask_jagged_load(ExprPtr load) {
  const SourceRange range = load->range;
  for (const int dim : jagged_dims_of(load->type.dims)) {
    ExprPtr mask = jagged_mask(load->type.dims, dim, range);
    ExprPtr zero = ir::Call::make(Intrinsic::kFullLike,
                                  {load, ir::IntImm::make(0, range), ir::NoneImm::make(range)},
                                  load->type, range);
    Type type = combine_types(*mask, *load, ArithKind::kComparison, range);
    type.dtype = load->type.dtype;
    load = ir::Call::make(Intrinsic::kWhere, {std::move(mask), load, std::move(zero)},
                          std::move(type), range);
  }
  return load;
}

ExprPtr KernelLowering::mask_jagged_store(const ExprPtr& tensor, const ir::Index& index,
                                          const std::vector<Dim>& dims, ExprPtr value,
                                          SourceRange range) {
  for (const int dim : jagged_dims_of(dims)) {
    ExprPtr mask = jagged_mask(dims, dim, range);
    ExprPtr old = ir::Load::make(
        tensor, index,
        Type::tile_tensor(dims, binding(tensor->as<ir::VarRef>()->binding).type.dtype), range);
    Type type = combine_types(*mask, *old, ArithKind::kComparison, range);
    type.dtype = value->type.kind == TypeKind::kTileTensor ? value->type.dtype : old->type.dtype;
    value = ir::Call::make(Intrinsic::kWhere, {std::move(mask), std::move(value), std::move(old)},
                           std::move(type), range);
  }
  return value;
}

ExprPtr KernelLowering::mask_jagged_reduction(Intrinsic op, ExprPtr value, int axis,
                                              SourceRange range) {
  const Dim& dim = value->type.dims[static_cast<size_t>(axis)];
  if (dim.kind != Dim::Kind::kTile || !jagged_lengths_.count(dim.tile_dim)) return value;
  // The elements past a row's length become the reduction's identity: 0 for `sum`, 1 for
  // `prod`, the lowest (highest) value for `amax` (`amin`): -inf (inf) for floats and for a
  // dtype known only at trace time (jnp.full_like saturates it to an integer dtype's bound),
  // the bound itself for a known integer dtype.
  ExprPtr fill;
  const auto full = [&](ExprPtr constant) {
    return ir::Call::make(Intrinsic::kFullLike,
                          {value, std::move(constant), ir::NoneImm::make(range)}, value->type,
                          range);
  };
  if (op == Intrinsic::kSum || op == Intrinsic::kProd) {
    fill = full(ir::IntImm::make(op == Intrinsic::kSum ? 0 : 1, range));
  } else if (op == Intrinsic::kAmax || op == Intrinsic::kAmin) {
    const bool lowest = op == Intrinsic::kAmax;
    const std::optional<ir::ScalarType> dtype = value->type.dtype;
    if (dtype && !ir::is_floating(*dtype)) {
      const auto bound = [&]() -> std::pair<int64_t, int64_t> {
        switch (*dtype) {
          case ir::ScalarType::kBool:
          case ir::ScalarType::kUInt8:
            return {0, *dtype == ir::ScalarType::kBool ? 1 : 255};
          case ir::ScalarType::kInt8:
            return {-128, 127};
          case ir::ScalarType::kInt16:
            return {-32768, 32767};
          default:
            return {-2147483648LL, 2147483647LL};
        }
      }();
      fill = full(ir::IntImm::make(lowest ? bound.first : bound.second, range));
    } else {
      fill = full(ir::FloatImm::make(lowest ? -HUGE_VAL : HUGE_VAL,
                                     lowest ? "float('-inf')" : "float('inf')", range));
    }
  } else {
    fail(DiagnosticKind::kUnsupported, range,
         fmt::format("`{}` along the jagged tile `{}` is not supported yet (the masked elements "
                     "would count); use `sum`, `prod`, `amax` or `amin` (a mean is the sum "
                     "divided by the lengths)",
                     ir::intrinsic_name(op), kernel_.tile_dims[dim.tile_dim].name));
  }
  ExprPtr mask = jagged_mask(value->type.dims, dim.tile_dim, range);
  Type type = combine_types(*mask, *value, ArithKind::kComparison, range);
  type.dtype = value->type.dtype;
  return ir::Call::make(Intrinsic::kWhere, {std::move(mask), value, std::move(fill)},
                        std::move(type), range);
}

}  // namespace helionc::frontend
