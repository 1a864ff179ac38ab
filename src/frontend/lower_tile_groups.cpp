// Views of a tile's block in groups of a few elements (`acc.view(tile_m.block_size,
// tile_d.block_size // 2, 2)`, then `hl.split` / `hl.join` of the pairs, and a view back to
// `[tile_m, tile_d]`). Block sizes are Python ints when JAX traces the module, so
// `tile_d.block_size // 2` is a static size there: Dim::Kind::kTilePart, the block's number
// of groups. Two rules keep the groups exact:
// - the divisor divides the block: a block the source fixes is checked here, a configured one
//   while the module traces (`_block_part`);
// - it divides the length of the tile's range (an implied `ir::Assert` before the launch), so
//   that no group straddles the range's end: each group of the last, partial block is all
//   inside the range or all past it (Helion would pair an element with a masked-off one).
// The reshape is then a jnp reshape of the block, elements moving only within groups.
#include <fmt/format.h>

#include <numeric>

#include "frontend/kernel_lowering.h"
#include "ir/printer.h"
#include "ir/visitor.h"

namespace helionc::frontend {

using ir::Dim;
using ir::ExprPtr;
using ir::Type;
using ir::TypeKind;

std::optional<Dim> KernelLowering::tile_part_size(const ExprPtr& size, SourceRange range) {
  const auto* division = size->as<ir::Binary>();
  if (division == nullptr || division->op != ir::BinaryOp::kFloorDiv) return std::nullopt;
  const auto* attr = division->lhs->as<ir::TileAttr>();
  const auto* divisor = division->rhs->as<ir::IntImm>();
  if (attr == nullptr || attr->attr != ir::TileAttrKind::kBlockSize || divisor == nullptr ||
      divisor->value < 2) {
    return std::nullopt;
  }
  const ir::TileDim& tile = kernel_.tile_dims[static_cast<size_t>(attr->tile_dim)];
  const int64_t k = divisor->value;
  if (tile.variadic || tile.jagged || tile.merged ||
      tile.block.kind == ir::BlockSource::Kind::kGrid) {
    unsupported(range, fmt::format("viewing the block of `{}` in groups ({}) for a tile of this "
                                   "kind (only `hl.tile` loops over one range)",
                                   tile.name, ir::print_expr(kernel_, size)));
  }
  if (tile.block.kind == ir::BlockSource::Kind::kFixed) {
    const auto* fixed = tile.block.size->as<ir::IntImm>();
    if (fixed && fixed->value % k != 0) {
      fail(DiagnosticKind::kShapeMismatch, range,
           fmt::format("cannot view the block of `{}` in groups of {}: its block size {} is not "
                       "a multiple of {}",
                       tile.name, k, fixed->value, k));
    }
  }
  if (tile.begin && ir::int_literal(*tile.begin, -1) != 0) {
    // The module's blocks start at multiples of the block size, Helion's at the begin: the
    // groups would differ where the begin is not a multiple of the divisor.
    unsupported(range, fmt::format("viewing the block of `{}` in groups when its loop has a "
                                   "begin",
                                   tile.name));
  }
  if (ir::reads_kernel_values(kernel_, tile.extent)) {
    unsupported(range, fmt::format("viewing the block of `{}` in groups when its range is read "
                                   "from tensors (its length is checked before the launch)",
                                   tile.name));
  }
  ir::TileDim& grouped = kernel_.tile_dims[static_cast<size_t>(attr->tile_dim)];
  grouped.grouped = grouped.grouped == 0 ? k : std::lcm(grouped.grouped, k);
  return Dim::tile_part(attr->tile_dim, k);
}

namespace {

// Whether `dims[from, to)` is a tile's block in groups: one kTilePart of `tile` and literal
// sizes whose product is its divisor, in any order (`[t // 2, 2]`, `[2, t // 2]`,
// `[t // 4, 2, 2]`).
bool groups_of(const std::vector<Dim>& dims, size_t from, size_t to, int tile) {
  int parts = 0;
  int64_t divisor = 0;
  int64_t product = 1;
  for (size_t i = from; i < to; ++i) {
    if (dims[i].kind == Dim::Kind::kTilePart && dims[i].tile_dim == tile) {
      ++parts;
      divisor = dims[i].extent;
    } else if (dims[i].kind == Dim::Kind::kLiteral && product <= (int64_t{1} << 20)) {
      product *= dims[i].extent;
    } else {
      return false;
    }
  }
  return parts == 1 && product == divisor;
}

// The end of the run of `dims` from `from` that is `tile`'s block in groups, or `from`.
size_t group_run(const std::vector<Dim>& dims, size_t from, int tile) {
  for (size_t to = from + 1; to <= dims.size(); ++to) {
    if (groups_of(dims, from, to, tile)) return to;
  }
  return from;
}

}  // namespace

ExprPtr KernelLowering::group_tile_reshape(const ExprPtr& value,
                                           const std::vector<std::optional<Dim>>& target,
                                           std::string_view shown, SourceRange range) {
  std::vector<Dim> wanted;
  for (const std::optional<Dim>& dim : target) {
    if (!dim) return nullptr;  // a -1: not inferred across groups
    wanted.push_back(*dim);
  }
  const std::vector<Dim> from = without_units(value->type.dims);
  const std::vector<Dim> to = without_units(wanted);
  std::vector<std::pair<int, int64_t>> splits;  // (tile, divisor) of each block split here
  bool grouped = false;
  size_t i = 0;
  size_t j = 0;
  while (i < from.size() && j < to.size()) {
    if (from[i] == to[j]) {
      ++i;
      ++j;
      continue;
    }
    if (from[i].kind == Dim::Kind::kTile) {
      const size_t end = group_run(to, j, from[i].tile_dim);
      if (end == j) return nullptr;
      for (size_t g = j; g < end; ++g) {
        if (to[g].kind == Dim::Kind::kTilePart) splits.emplace_back(to[g].tile_dim, to[g].extent);
      }
      grouped = true;
      ++i;
      j = end;
      continue;
    }
    if (to[j].kind == Dim::Kind::kTile) {
      const size_t end = group_run(from, i, to[j].tile_dim);
      if (end == i) return nullptr;
      grouped = true;
      i = end;
      ++j;
      continue;
    }
    return nullptr;
  }
  if (!grouped || i != from.size() || j != to.size()) return nullptr;
  // No group straddles the end of the tile's range: its length is a multiple of the divisor.
  for (const auto& [tile_dim, divisor] : splits) {
    const ir::TileDim& tile = kernel_.tile_dims[static_cast<size_t>(tile_dim)];
    const Type int_type = Type::scalar(TypeKind::kInt);
    ExprPtr length = tile.extent;  // the loop starts at 0 (tile_part_size)
    const std::string length_text = ir::print_expr(kernel_, length);
    // The names are identifiers and the rest is plain text: a valid Python literal as spelled.
    const std::string text = fmt::format(
        "the length of the range of `{}` ({}) must be a multiple of {}: the kernel views its "
        "blocks in groups of {} here (`{}`), and a group past the range's end would mix elements "
        "inside and outside it; the remainder is ",
        tile.name, length_text, divisor, divisor, shown);
    if (!required_sizes_.insert("%" + text).second) continue;
    ExprPtr remainder = ir::Binary::make(ir::BinaryOp::kMod, std::move(length),
                                         ir::IntImm::make(divisor, range), int_type, range);
    ExprPtr check =
        ir::Compare::make(ir::CompareOp::kEq, std::move(remainder), ir::IntImm::make(0, range),
                          Type::scalar(TypeKind::kBool), range);
    pending_size_checks_.push_back(ir::Assert::make(
        std::move(check), ir::StringImm::make(fmt::format("\"{}\"", text), range), range,
        /*implied=*/true));
  }
  std::vector<ExprPtr> entries;
  for (const Dim& dim : wanted) entries.push_back(dim_size(dim, range));
  const int rank = static_cast<int>(entries.size());
  return ir::Call::make(ir::Intrinsic::kReshape,
                        {value, ir::TupleExpr::make(std::move(entries), Type::shape(rank), range)},
                        Type::tile_tensor(std::move(wanted), value->type.dtype), range);
}

}  // namespace helionc::frontend
