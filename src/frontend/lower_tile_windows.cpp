// Subscripts of tile values (`x_block[1]`, `x_block[1:3]`, `x_block[local.index]`,
// `x_block[local.begin]`, `v[:, 64 + hl.arange(128)]`, `v[:, hl.arange(128)]`, `v[:, None]`):
// windows of a value already in the kernel. Each index other than `:` and `None` is one `window`
// intrinsic (value, axis, start, length, rows), followed by a `squeeze` where the index is a
// scalar.
//
// A window must stay inside the elements the kernel's meaning gives the value (a row past them
// is the padding of a partial block, or another block's row): that is decided here, per kind of
// the indexed dimension, and each case is either proved, left to a check, or refused:
// - a literal size: the window's bounds are compared with it now;
// - a tensor's whole axis (`x.size(d)`): constant bounds get an implied trace-time check
//   (`x.size(d) >= stop`); a tile window needs the loop to run over that axis;
// - a tile's block (rows of a loaded block): a loop over `outer.end - outer.begin` (the block's
//   live rows) stays inside by construction; constant bounds and loops over a number of rows
//   carry `rows`, the rows every block of the tile must hold, which the module checks while it
//   traces (the block size and the loop's range are known then) with a clear error.
#include <fmt/format.h>

#include <algorithm>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::Dim;
using ir::ExprPtr;
using ir::Intrinsic;
using ir::Type;
using ir::TypeKind;

namespace {

const ir::TileAttr* tile_attr(const ExprPtr& expr, ir::TileAttrKind kind) {
  const auto* attr = expr->as<ir::TileAttr>();
  return attr && attr->attr == kind ? attr : nullptr;
}

// `tile.index`, `tile.index + 0` or a one-dimensional tile itself: the tile dimension, or -1.
int index_tile(const ExprPtr& expr) {
  if (const auto* attr = tile_attr(expr, ir::TileAttrKind::kIndex)) return attr->tile_dim;
  if (expr->type.kind == TypeKind::kTile && expr->type.tile_dims.size() == 1 &&
      !expr->type.variadic) {
    return expr->type.tile_dims[0];
  }
  if (const auto* sum = expr->as<ir::Binary>(); sum && sum->op == ir::BinaryOp::kAdd) {
    const auto* zero = sum->rhs->as<ir::IntImm>();
    if (zero && zero->value == 0) return index_tile(sum->lhs);
  }
  return -1;
}

}  // namespace

ExprPtr KernelLowering::resolve_device_int(ExprPtr value) const {
  for (const auto* ref = value->as<ir::VarRef>(); ref; ref = value->as<ir::VarRef>()) {
    auto found = device_ints_.find(ref->binding);
    if (found == device_ints_.end()) break;
    value = found->second;
  }
  return value;
}

bool KernelLowering::spans_live_rows(int loop_dim, int outer_dim) const {
  // hl.tile(outer.end - outer.begin): from 0 to the block's last live row.
  const ir::TileDim& loop = kernel_.tile_dims[loop_dim];
  if (loop.begin && ir::int_literal(*loop.begin, -1) != 0) return false;
  return is_live_rows(loop.extent, outer_dim);
}

bool KernelLowering::is_live_rows(const ExprPtr& value, int outer_dim) const {
  const ExprPtr extent = resolve_device_int(value);
  const auto* diff = extent->as<ir::Binary>();
  if (!diff || diff->op != ir::BinaryOp::kSub) return false;
  const auto* end = tile_attr(resolve_device_int(diff->lhs), ir::TileAttrKind::kEnd);
  const auto* begin = tile_attr(resolve_device_int(diff->rhs), ir::TileAttrKind::kBegin);
  return end && begin && end->tile_dim == outer_dim && begin->tile_dim == outer_dim;
}

ExprPtr KernelLowering::make_window(const ExprPtr& value, int axis, const Window& window,
                                    SourceRange range) {
  const Dim source = value->type.dims[axis];
  const auto literal_stop = [&]() -> int64_t {
    return window.stop_literal >= 0 ? window.stop_literal : -1;
  };
  int64_t rows = 0;  // rows every block must hold (0: proved)
  switch (source.kind) {
    case Dim::Kind::kLiteral:
    case Dim::Kind::kUnit: {
      const int64_t size = source.kind == Dim::Kind::kUnit ? 1 : source.extent;
      if (window.loop_dim >= 0 || window.live_binding >= 0) {
        unsupported(range, fmt::format("indexing a dimension of size {} with a tile", size));
      }
      if (window.stop_literal < 0 || window.stop_literal > size) {
        fail(DiagnosticKind::kShapeMismatch, range,
             fmt::format("the window reaches past the end of a dimension of size {}", size));
      }
      break;
    }
    case Dim::Kind::kFull:
      if (window.live_binding >= 0) {
        unsupported(range, "a window `n - c : n` of a tensor's whole axis");
      }
      if (window.loop_dim >= 0) {
        const ExprPtr extent = kernel_.tile_dims[window.loop_dim].extent;
        const auto* size = resolve_device_int(extent)->as<ir::Call>();
        const ir::TileDim& loop = kernel_.tile_dims[window.loop_dim];
        const bool whole_axis = size && size->op == Intrinsic::kSize &&
                                (!loop.begin || ir::int_literal(*loop.begin, -1) == 0) &&
                                size->args[0]->as<ir::VarRef>() &&
                                size->args[0]->as<ir::VarRef>()->binding == source.binding &&
                                ir::int_literal(*size->args[1], -1) == source.axis;
        if (!whole_axis) {
          unsupported(range, fmt::format("indexing `{}.size({})` of a tile value with a tile "
                                         "whose loop does not run over that axis",
                                         binding(source.binding).name, source.axis));
        }
      } else {
        require_size(SizeAgreement{Dim::literal(literal_stop()), source}, range,
                     ir::CompareOp::kGe);
      }
      break;
    case Dim::Kind::kTile:
      if (window.live_binding >= 0) {
        const ExprPtr live =
            ir::VarRef::make(window.live_binding, binding(window.live_binding).type, range);
        if (!is_live_rows(live, source.tile_dim)) {
          unsupported(range, fmt::format("a window `n - c : n` of the rows of a block of `{}` "
                                         "where `n` is not `{}.end - {}.begin`",
                                         kernel_.tile_dims[source.tile_dim].name,
                                         kernel_.tile_dims[source.tile_dim].name,
                                         kernel_.tile_dims[source.tile_dim].name));
        }
        break;  // rows [live - c, live), and live >= c under the `if`
      }
      if (window.loop_dim >= 0 && spans_live_rows(window.loop_dim, source.tile_dim)) break;
      if (window.loop_dim >= 0) {
        const ir::TileDim& loop = kernel_.tile_dims[window.loop_dim];
        const int64_t count = ir::int_literal(*loop.extent, -1);
        if ((loop.begin && ir::int_literal(*loop.begin, -1) != 0) || count < 1) {
          unsupported(range,
                      fmt::format("indexing the rows of a block of `{}` with a tile whose loop "
                                  "runs over neither `{}.end - {}.begin` (the block's live rows) "
                                  "nor a number of rows",
                                  kernel_.tile_dims[source.tile_dim].name,
                                  kernel_.tile_dims[source.tile_dim].name,
                                  kernel_.tile_dims[source.tile_dim].name));
        }
        rows = count;
      } else {
        rows = literal_stop();
      }
      break;
    case Dim::Kind::kComputed:
      // A host int: constant bounds are checked against it at trace time, as for an axis.
      if (window.loop_dim >= 0 || window.live_binding >= 0) {
        unsupported(range, "indexing a size computed on the host with a tile or a device int");
      }
      require_size(SizeAgreement{Dim::literal(literal_stop()), source}, range, ir::CompareOp::kGe);
      break;
    case Dim::Kind::kVariadic:
      unsupported(range, "indexing a tile value whose rank is only known at trace time");
    case Dim::Kind::kTilePart:
      // The groups of a partial last block past the range's end are padding.
      unsupported(range, "indexing the groups of a tile's block (`tile.block_size // 2`)");
    case Dim::Kind::kSlice:
      unsupported(range, "indexing a slice of a tensor's axis (`x[tile, a:b]`) loaded as a value");
  }
  if (rows > 0) {
    int64_t& needed = kernel_.tile_dims[source.tile_dim].window_rows;
    needed = std::max(needed, rows);
  }
  std::vector<Dim> dims = value->type.dims;
  dims[axis] = window.result;
  return ir::Call::make(Intrinsic::kWindow,
                        {value, ir::IntImm::make(axis, range), window.start, window.length,
                         ir::IntImm::make(rows, range)},
                        Type::tile_tensor(std::move(dims), value->type.dtype), range);
}

std::optional<KernelLowering::Window> KernelLowering::live_tail_window(const SyntaxNode& start,
                                                                       const SyntaxNode& stop) {
  // `v[n - c : n]` with `n` a device int that an enclosing `if n >= k:` (k >= c) bounds.
  if (!start || !stop || start.type() != "binary_operator" || stop.type() != "identifier") {
    return std::nullopt;
  }
  const ExprPtr end = lower_expr(stop);
  const auto* name = end->as<ir::VarRef>();
  if (!name || end->type.kind != TypeKind::kInt) return std::nullopt;
  const ExprPtr begin = lower_expr(start);
  const auto* diff = begin->as<ir::Binary>();
  if (!diff || diff->op != ir::BinaryOp::kSub) return std::nullopt;
  const auto* same = diff->lhs->as<ir::VarRef>();
  const auto* count = diff->rhs->as<ir::IntImm>();
  if (!same || same->binding != name->binding || !count || count->value < 1) return std::nullopt;
  const bool guarded = std::any_of(
      device_guards_.begin(), device_guards_.end(),
      [&](const auto& g) { return g.first == name->binding && g.second >= count->value; });
  if (!guarded) {
    fail(DiagnosticKind::kUnsupported, start.range().merge(stop.range()),
         fmt::format("a window `{0} - {1} : {0}` outside an `if {0} >= {1}:` is not supported "
                     "yet (it would start before the block's first row)",
                     binding(name->binding).name, count->value));
  }
  Window window;
  window.start = begin;
  window.length = ir::IntImm::make(count->value, start.range());
  window.result = count->value == 1 ? Dim::unit() : Dim::literal(count->value);
  window.live_binding = name->binding;
  return window;
}

std::optional<KernelLowering::Window> KernelLowering::window_of(const SyntaxNode& item) {
  const SourceRange range = item.range();
  const auto literal = [&](int64_t start, int64_t length) {
    Window window;
    window.start = ir::IntImm::make(start, range);
    window.length = ir::IntImm::make(length, range);
    window.result = length == 1 ? Dim::unit() : Dim::literal(length);
    window.stop_literal = start + length;
    return window;
  };
  if (item.type() == "slice") {
    const SliceParts parts = slice_parts(item);
    if (parts[2]) unsupported(parts[2].range(), "slicing a tile value with a step");
    if (std::optional<Window> tail = live_tail_window(parts[0], parts[1])) return tail;
    const auto bound = [&](const SyntaxNode& node) -> int64_t {
      const ExprPtr value = lower_expr(node);
      const auto* imm = value->as<ir::IntImm>();
      if (!imm || imm->value < 0) {
        unsupported(node.range(),
                    "slicing a tile value with a bound other than a non-negative number");
      }
      return imm->value;
    };
    if (!parts[1]) {
      fail(DiagnosticKind::kUnsupported, range,
           "slicing a tile value without an end (`v[a:]`) is not supported yet; write `v[a:b]`");
    }
    const int64_t start = parts[0] ? bound(parts[0]) : 0;
    const int64_t stop = bound(parts[1]);
    if (stop <= start) {
      fail(DiagnosticKind::kShapeMismatch, range,
           "an empty slice of a tile value (the end must be above the start)");
    }
    return literal(start, stop - start);
  }
  const ExprPtr index = resolve_device_int(lower_expr(item));
  if (const auto* imm = index->as<ir::IntImm>()) {
    if (imm->value < 0) {
      fail(DiagnosticKind::kUnsupported, range,
           "a negative index into a tile value is not supported yet; count from the start");
    }
    Window window = literal(imm->value, 1);
    window.scalar = true;
    return window;
  }
  if (const int dim = index_tile(index); dim >= 0) {
    Window window;
    window.start =
        ir::TileAttr::make(dim, ir::TileAttrKind::kBegin, Type::scalar(TypeKind::kInt), range);
    window.length =
        ir::TileAttr::make(dim, ir::TileAttrKind::kBlockSize, Type::scalar(TypeKind::kInt), range);
    window.result = Dim::tile(dim);
    window.loop_dim = dim;
    return window;
  }
  if (const auto* begin = tile_attr(resolve_device_int(index), ir::TileAttrKind::kBegin)) {
    // `local.begin`: one row, where the tile's loop runs (a block size of 1 walks them all).
    Window window;
    window.start = resolve_device_int(index);
    window.length = ir::IntImm::make(1, range);
    window.result = Dim::unit();
    window.loop_dim = begin->tile_dim;
    window.scalar = true;
    return window;
  }
  if (const auto* arange = index->as<ir::Call>();
      arange && arange->op == Intrinsic::kArange && arange->type.dims.size() == 1 &&
      arange->type.dims[0].kind == Dim::Kind::kLiteral) {
    // `hl.arange(n)`: the literal window [0, n).
    return literal(0, arange->type.dims[0].extent);
  }
  if (const auto* sum = index->as<ir::Binary>(); sum && sum->op == ir::BinaryOp::kAdd) {
    // `c + hl.arange(n)`: the literal window [c, c + n).
    const auto* offset = sum->lhs->as<ir::IntImm>();
    const auto* arange = sum->rhs->as<ir::Call>();
    if (offset && offset->value >= 0 && arange && arange->op == Intrinsic::kArange &&
        arange->type.dims.size() == 1) {
      const Dim& length = arange->type.dims[0];
      if (length.kind == Dim::Kind::kLiteral) return literal(offset->value, length.extent);
    }
  }
  return std::nullopt;
}

ExprPtr KernelLowering::lower_tile_subscript(const ExprPtr& base, const SyntaxNode& node) {
  ExprPtr value = base;
  int axis = 0;
  int consumed = 0;
  const int rank = base->type.tile_rank();
  const std::vector<SyntaxNode> items = node.children_by_field("subscript");
  const SyntaxNode* ellipsis = single_ellipsis(items);
  for (const SyntaxNode& item : items) {
    if (ellipsis && &item == ellipsis) {
      // As many `:` as the other entries leave axes.
      if (rank < 0) {
        unsupported(item.range(),
                    "`...` in an index of a tile value whose rank is only known "
                    "at trace time");
      }
      const auto others = std::count_if(items.begin(), items.end(), [](const SyntaxNode& i) {
        return i.type() != "none" && i.type() != "ellipsis";
      });
      const int whole = std::max(0, rank - static_cast<int>(others));
      axis += whole;
      consumed += whole;
      continue;
    }
    if (item.type() == "none") {
      value = make_unsqueeze(value, axis, item.range());
      ++axis;
      continue;
    }
    ++consumed;
    if (item.type() == "slice" && item.named_children().empty()) {
      ++axis;
      continue;
    }
    if (rank < 0) {
      unsupported(item.range(), "indexing a tile value whose rank is only known at trace time");
    }
    if (consumed > rank) break;  // reported below
    const std::optional<Window> window = window_of(item);
    if (!window) {
      unsupported(item.range(),
                  "indexing a tile value with anything but `:`, `None`, a number, a slice with "
                  "number bounds, `tile.index`, `tile.begin` or `c + hl.arange(n)`");
    }
    value = make_window(value, axis, *window, item.range());
    if (window->scalar) {
      std::vector<Dim> dims = value->type.dims;
      dims.erase(dims.begin() + axis);
      value = ir::Call::make(Intrinsic::kSqueeze, {value, ir::IntImm::make(axis, item.range())},
                             Type::tile_tensor(std::move(dims), value->type.dtype), item.range());
    } else {
      ++axis;
    }
  }
  if (rank >= 0 && consumed != rank) {
    fail(DiagnosticKind::kRankMismatch, node.range(),
         fmt::format("a tile of rank {} is indexed with {} indices", rank, consumed));
  }
  return value;
}

}  // namespace helionc::frontend
