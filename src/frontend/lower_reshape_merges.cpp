// `.reshape()`/`.view()` of a tile value that merges tile dimensions into one
// (`q[tile_b, tile_h, tile_m, :].reshape([-1, d])`, test_pallas' `attn_merge`). A merged
// dimension of several tiles is no tile: its rows are the blocks' rows in turn, each valid only
// where every tile's row is, and a `-1` row count that is a product of block sizes. helionc
// types every dimension by one tile, so it makes every merged tile but the last one a tile of
// block size 1, which is what such kernels run with (Helion's test runs attn_merge with blocks
// [1, 1, 64, 32]; with larger ones the attention would mix rows of different heads): those
// tiles then hold one valid row per step, a unit dimension, and the reshape only drops unit
// dimensions. Their loops keep that block (TileDim::merged, `_kept_block`); their config entry
// is not read (README, "Decisions worth knowing"). A tile whose block the source fixes to
// another size, that other loops share, or that lies on the block's last two axes (a block of
// one sublane or lane is illegal on a TPU) is refused.
#include <fmt/format.h>

#include <algorithm>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::BlockSource;
using ir::Dim;
using ir::ExprPtr;
using ir::Type;

namespace {

// The tile dimensions of `dims`, in order.
std::vector<int> tiles_of(const std::vector<std::optional<Dim>>& dims) {
  std::vector<int> tiles;
  for (const std::optional<Dim>& dim : dims) {
    if (dim && dim->kind == Dim::Kind::kTile) tiles.push_back(dim->tile_dim);
  }
  return tiles;
}

}  // namespace

ExprPtr KernelLowering::merge_unit_tiles(const ExprPtr& value,
                                         const std::vector<std::optional<Dim>>& target,
                                         std::string_view shown, const std::string& to,
                                         SourceRange range) {
  const std::vector<std::optional<Dim>> source(value->type.dims.begin(), value->type.dims.end());
  const std::vector<int> have = tiles_of(source);
  const std::vector<int> want = tiles_of(target);
  // The tiles the target drops; the ones it keeps must stay in order (else it is no merge).
  std::vector<int> dropped;
  size_t next = 0;
  for (const int tile : have) {
    if (next < want.size() && want[next] == tile) {
      ++next;
    } else {
      dropped.push_back(tile);
    }
  }
  if (dropped.empty() || next != want.size()) return nullptr;
  // A -1 that the other sizes leave no dimension for stands for the last dropped tile: the tile
  // the others merge into (`[tile_b, tile_h, tile_m, d]` to `[-1, d]` keeps `tile_m`).
  const bool inferred =
      std::any_of(target.begin(), target.end(), [](const std::optional<Dim>& dim) { return !dim; });
  std::optional<int> kept;  // the dropped tile a -1 stands for
  if (inferred) {
    size_t left = 0;  // non-unit source dimensions once every dropped tile is a unit
    for (const Dim& dim : value->type.dims) {
      const bool gone = dim.kind == Dim::Kind::kTile &&
                        std::find(dropped.begin(), dropped.end(), dim.tile_dim) != dropped.end();
      if (dim.kind != Dim::Kind::kUnit && !gone) ++left;
    }
    size_t named = 0;  // non-unit target sizes besides the -1
    for (const std::optional<Dim>& dim : target) {
      if (dim && dim->kind != Dim::Kind::kUnit) ++named;
    }
    if (left == named) {
      kept = dropped.back();
      dropped.pop_back();
    }
    if (dropped.empty()) return nullptr;
  }
  // Each dropped tile must merge into a tile that stays: the next dimension that is neither a
  // unit nor dropped. Otherwise the reshape merges a tile with whole axes (not a merge of tiles).
  std::vector<int> into(dropped.size(), -1);
  for (size_t d = 0; d < dropped.size(); ++d) {
    const auto at =
        std::find(value->type.dims.begin(), value->type.dims.end(), Dim::tile(dropped[d]));
    for (auto it = at + 1; it != value->type.dims.end(); ++it) {
      if (it->kind == Dim::Kind::kUnit) continue;
      if (it->kind == Dim::Kind::kTile &&
          std::find(dropped.begin(), dropped.end(), it->tile_dim) != dropped.end()) {
        continue;
      }
      const bool stays =
          it->kind == Dim::Kind::kTile &&
          (it->tile_dim == kept || std::find(want.begin(), want.end(), it->tile_dim) != want.end());
      if (stays) into[d] = it->tile_dim;
      break;
    }
    if (into[d] < 0) return nullptr;
  }
  const std::string from = dims_to_string(kernel_, value->type.dims);
  for (size_t d = 0; d < dropped.size(); ++d) {
    const int tile = dropped[d];
    ir::TileDim& dim = kernel_.tile_dims[static_cast<size_t>(tile)];
    const auto refuse = [&](const std::string& why) {
      unsupported(range,
                  fmt::format("`{}` of a tile of shape {} to {}, which merges `{}` into the "
                              "dimension of `{}` and so needs blocks of 1 along `{}`, where {}",
                              shown, from, to, dim.name,
                              kernel_.tile_dims[static_cast<size_t>(into[d])].name, dim.name, why));
    };
    if (dim.variadic || dim.jagged) refuse("it is not a plain tile (rank-polymorphic or jagged)");
    // A block of one row is legal on a TPU along a leading axis only (the last two take a
    // multiple of 8 or 128, or the whole axis).
    const auto position =
        std::find(value->type.dims.begin(), value->type.dims.end(), Dim::tile(tile)) -
        value->type.dims.begin();
    if (position + 2 >= static_cast<std::ptrdiff_t>(value->type.dims.size())) {
      refuse(
          "it is one of the block's last two dimensions (a TPU block of one sublane or lane "
          "is not legal)");
    }
    if (dim.block.kind == BlockSource::Kind::kFixed) {
      const auto* size = dim.block.size ? dim.block.size->as<ir::IntImm>() : nullptr;
      if (size == nullptr || size->value != 1) refuse("the source fixes another block size");
      dim.merged = true;
      continue;
    }
    if (dim.block.kind != BlockSource::Kind::kTunable) refuse("it is not a tiled loop");
    // The tunable must be this loop's own: another loop tiling with it, or the kernel reading
    // its value, would see 1 too.
    const int tunable = dim.block.tunable;
    const bool registered =
        std::any_of(registered_block_sizes_.begin(), registered_block_sizes_.end(),
                    [&](const auto& entry) { return entry.second == tunable; });
    const bool shared =
        std::count_if(kernel_.tile_dims.begin(), kernel_.tile_dims.end(), [&](const auto& other) {
          return other.block.kind == BlockSource::Kind::kTunable && other.block.tunable == tunable;
        }) > 1;
    if (registered || shared) {
      refuse(
          fmt::format("its block size (`block_sizes[{}]`) is shared with other loops (a "
                      "registered block size)",
                      tunable));
    }
    dim.block = BlockSource{BlockSource::Kind::kFixed, -1, ir::IntImm::make(1, dim.range)};
    dim.merged = true;
  }
  // The value with the dropped tiles as unit dimensions: the same block, one row each.
  std::vector<Dim> dims = value->type.dims;
  std::vector<ExprPtr> entries;
  for (Dim& dim : dims) {
    if (dim.kind == Dim::Kind::kTile &&
        std::find(dropped.begin(), dropped.end(), dim.tile_dim) != dropped.end()) {
      dim = Dim::unit();
    }
    entries.push_back(dim_size(dim, range));
  }
  const int rank = static_cast<int>(entries.size());
  return ir::Call::make(ir::Intrinsic::kReshape,
                        {value, ir::TupleExpr::make(std::move(entries), Type::shape(rank), range)},
                        Type::tile_tensor(std::move(dims), value->type.dtype), range);
}

}  // namespace helionc::frontend
