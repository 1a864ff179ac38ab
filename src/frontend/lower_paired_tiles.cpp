// Tiles of two loops over one range combined row by row: `x[tile_i, :] * y[tile_j, :]` with
// `for tile_i in hl.tile(start, end)` and `for tile_j in hl.tile(start, end)`. Helion accepts it
// when the two block sizes are equal (the shapes then agree) and pairs row `start + a * block
// + r` of one block with row `start + b * block + r` of the other: its blocks start at the
// loop's begin.
//
// helionc's blocks of a loop bounded in the kernel start at multiples of the block (README,
// "Loop bounds read from tensors"), which pair the same rows only when the block divides the
// begin. So a loop whose begin is read in the kernel and whose tiles meet another loop's over
// the same range is marked paired (ir::TileDim::paired_with): the backends start its blocks at
// `begin + k * block` (README, "Paired tiles"). In the combination the second operand takes the
// first's tile dimension, its rows past the loop's end zeros (Helion's masked loads read 0
// there); the first's rows past the end are masked as any tile's are (by the reductions and
// products along it). Loops whose begin is known on the host keep the error: their blocks
// would need the same scheme, and no kernel of Helion's has that form.
#include <fmt/format.h>

#include <string>

#include "frontend/kernel_lowering.h"
#include "ir/printer.h"
#include "ir/visitor.h"

namespace helionc::frontend {

using ir::Dim;
using ir::ExprPtr;
using ir::Intrinsic;
using ir::Type;
using ir::TypeKind;

namespace {

// The loop's range as written, to compare two loops' ranges.
std::string range_text(const ir::Kernel& kernel, const ir::TileDim& dim) {
  return fmt::format("{}:{}", dim.begin ? ir::print_expr(kernel, dim.begin) : "0",
                     ir::print_expr(kernel, dim.extent));
}

// Two different tile dimensions of loops over one range.
bool same_range(const ir::Kernel& kernel, const Dim& a, const Dim& b) {
  if (a.kind != Dim::Kind::kTile || b.kind != Dim::Kind::kTile || a.tile_dim == b.tile_dim) {
    return false;
  }
  const ir::TileDim& ta = kernel.tile_dims[static_cast<size_t>(a.tile_dim)];
  const ir::TileDim& tb = kernel.tile_dims[static_cast<size_t>(b.tile_dim)];
  return !ta.variadic && !tb.variadic && range_text(kernel, ta) == range_text(kernel, tb);
}

// A loop whose blocks may start at its begin: the begin is read in the kernel (a tensor
// element or a device value), the loop is an ordinary `hl.tile` with a tunable block or one
// fixed in the source, and it pairs with no third loop.
bool pairable(const ir::Kernel& kernel, const ir::TileDim& dim, int partner) {
  const bool begin_in_kernel =
      ir::has_begin(dim) &&
      (dim.begin->type.kind == TypeKind::kTileTensor || ir::reads_kernel_values(kernel, dim.begin));
  return begin_in_kernel && !dim.jagged && !dim.merged && dim.stored_block == 0 &&
         dim.block.kind != ir::BlockSource::Kind::kGrid &&
         (dim.paired_with < 0 || dim.paired_with == partner);
}

}  // namespace

void KernelLowering::pair_tiles(const ExprPtr& lhs, ExprPtr& rhs, SourceRange range) {
  if (lhs->type.kind != TypeKind::kTileTensor || rhs->type.kind != TypeKind::kTileTensor ||
      lhs->type.variadic || rhs->type.variadic) {
    return;
  }
  const std::vector<Dim>& a = lhs->type.dims;
  for (size_t i = 0; i < a.size() && i < rhs->type.dims.size(); ++i) {  // right-aligned
    const Dim mine = a[a.size() - 1 - i];
    const size_t axis = rhs->type.dims.size() - 1 - i;
    const Dim theirs = rhs->type.dims[axis];
    if (!same_range(kernel_, mine, theirs)) continue;
    ir::TileDim& first = kernel_.tile_dims[static_cast<size_t>(mine.tile_dim)];
    ir::TileDim& second = kernel_.tile_dims[static_cast<size_t>(theirs.tile_dim)];
    if (!pairable(kernel_, first, theirs.tile_dim) || !pairable(kernel_, second, mine.tile_dim)) {
      continue;  // combine_types reports it (refuse_paired_tiles)
    }
    first.paired_with = theirs.tile_dim;
    second.paired_with = mine.tile_dim;
    // `tile_j.index < tile_j.end`, with unit axes after the tile's, as the rows to keep.
    ExprPtr live = ir::Compare::make(
        ir::CompareOp::kLt,
        ir::TileAttr::make(theirs.tile_dim, ir::TileAttrKind::kIndex,
                           Type::tile_tensor({theirs}, ir::ScalarType::kInt32), range),
        ir::TileAttr::make(theirs.tile_dim, ir::TileAttrKind::kEnd, Type::scalar(TypeKind::kInt),
                           range),
        Type::tile_tensor({theirs}, ir::ScalarType::kBool), range);
    while (live->type.dims.size() < rhs->type.dims.size() - axis) {
      live = make_unsqueeze(live, static_cast<int>(live->type.dims.size()), range);
    }
    ExprPtr zero = ir::Call::make(Intrinsic::kFullLike,
                                  {rhs, ir::IntImm::make(0, range), ir::NoneImm::make(range)},
                                  rhs->type, range);
    std::vector<Dim> dims = rhs->type.dims;
    dims[axis] = mine;
    rhs = ir::Call::make(Intrinsic::kWhere, {std::move(live), rhs, std::move(zero)},
                         Type::tile_tensor(std::move(dims), rhs->type.dtype), range);
  }
}

void KernelLowering::refuse_paired_tiles(const std::vector<Dim>& a, const std::vector<Dim>& b,
                                         SourceRange range) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {  // right-aligned, as they broadcast
    const Dim& da = a[a.size() - 1 - i];
    const Dim& db = b[b.size() - 1 - i];
    if (!same_range(kernel_, da, db)) continue;
    const ir::TileDim& ta = kernel_.tile_dims[static_cast<size_t>(da.tile_dim)];
    const ir::TileDim& tb = kernel_.tile_dims[static_cast<size_t>(db.tile_dim)];
    // Only loops whose begin is read in the kernel are paired (pair_tiles): their blocks start
    // at the begin. Elsewhere helionc's blocks start at multiples of the block.
    unsupported(
        range,
        fmt::format("shapes {} and {} combine the tiles `{}` and `{}` of two loops over "
                    "one range row by row (as Helion does when their block sizes are "
                    "equal); helionc pairs them only in loops whose begin is read in the "
                    "kernel (`hl.tile(offsets[g], offsets[g + 1])`), with `hl.tile` blocks, in "
                    "arithmetic, and each loop with one other; this form",
                    dims_to_string(kernel_, a), dims_to_string(kernel_, b), ta.name, tb.name));
  }
}

}  // namespace helionc::frontend
