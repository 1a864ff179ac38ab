// Subscripts in device code: `x[tile_m, :]`, `x[i, tile_n]`, `x[tile_m, None]`, gathers
// `w[ids[tile_b], tile_e]`, and the explicit forms `hl.load(x, [...], extra_mask=...)` /
// `hl.store(x, [...], value, extra_mask=...)`.
#include <algorithm>

#include <fmt/format.h>

#include <algorithm>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::ExprPtr;
using ir::Type;
using ir::TypeKind;

ir::Index KernelLowering::lower_index(int tensor, const SyntaxNode& subscript_node,
                                      std::vector<ir::Dim>* dims) {
  return lower_index_items(tensor, subscript_node.children_by_field("subscript"),
                           subscript_node.range(), dims);
}

namespace {

// `slice(None)` (or `slice(None, None)`): the whole axis, as `:` is.
bool is_whole_slice_call(const SyntaxNode& node) {
  if (node.type() != "call" || node.child_by_field("function").text() != "slice") return false;
  const auto args = node.child_by_field("arguments").named_children();
  if (args.empty() || args.size() > 2) return false;
  return std::all_of(args.begin(), args.end(),
                     [](const SyntaxNode& arg) { return arg.type() == "none"; });
}

}  // namespace

ir::Index KernelLowering::lower_index_items(int tensor, const std::vector<SyntaxNode>& items,
                                            SourceRange subscript_range,
                                            std::vector<ir::Dim>* dims) {
  ir::Index index;
  const SyntaxNode* ellipsis = single_ellipsis(items);
  size_t ellipsis_at = 0;  // where in `index` the `:`s that `...` stands for go
  // Slices after `...`: their axis is known once `...` is expanded (positions in `index`).
  std::vector<std::pair<size_t, SyntaxNode>> late_slices;
  for (const SyntaxNode& item : items) {
    ir::IndexItem entry;
    entry.range = item.range();
    if (item.type() == "ellipsis") {
      ellipsis_at = index.size();
      continue;
    }
    if (ellipsis && ellipsis->start_byte() < item.start_byte() &&
        (item.type() == "slice" || is_slice_call(item))) {
      late_slices.emplace_back(index.size(), item);
      entry.kind = ir::IndexItem::Kind::kFull;  // a placeholder, one axis
      index.push_back(entry);
      continue;
    }
    if (item.type() == "slice" || is_slice_call(item)) {
      const auto axis = std::count_if(index.begin(), index.end(), [](const ir::IndexItem& e) {
        return e.kind != ir::IndexItem::Kind::kNewAxis;
      });
      index.push_back(lower_tensor_slice(tensor, static_cast<int>(axis), item));
      continue;
    }
    if (is_whole_slice_call(item)) {  // `slice(None)` in an `hl.load`/`hl.atomic_*` list
      entry.kind = ir::IndexItem::Kind::kFull;
      index.push_back(entry);
      continue;
    }
    if (item.type() == "none") {
      entry.kind = ir::IndexItem::Kind::kNewAxis;
      index.push_back(entry);
      continue;
    }
    ExprPtr value = lower_expr(item);
    const Type& type = value->type;
    if (const auto* attr = value->as<ir::TileAttr>(); attr &&
                                                      attr->attr == ir::TileAttrKind::kIndex &&
                                                      !kernel_.tile_dims[attr->tile_dim].variadic) {
      // `x[tile.index]` selects the tile's elements, as `x[tile]` does (not a gather).
      entry.kind = ir::IndexItem::Kind::kTile;
      entry.tile_dim = attr->tile_dim;
      index.push_back(entry);
      continue;
    }
    if (type.kind == TypeKind::kTile) {
      for (int dim : type.tile_dims) {
        entry.kind = kernel_.tile_dims[dim].variadic ? ir::IndexItem::Kind::kVariadic
                                                     : ir::IndexItem::Kind::kTile;
        entry.tile_dim = dim;
        index.push_back(entry);
      }
    } else if (type.kind == TypeKind::kInt) {
      entry.kind = ir::IndexItem::Kind::kScalar;
      entry.scalar = value;
      index.push_back(entry);
    } else if (type.kind == TypeKind::kTileTensor) {
      if (type.dtype && !ir::is_integral(*type.dtype)) {
        fail(DiagnosticKind::kTypeMismatch, item.range(),
             fmt::format("a tile of indices must hold integers, not `{}`",
                         ir::dtype_name(*type.dtype)));
      }
      if (type.variadic) unsupported(item.range(), "gathering with indices of trace-time rank");
      entry.kind = ir::IndexItem::Kind::kGather;
      entry.scalar = value;
      index.push_back(entry);
    } else {
      fail(DiagnosticKind::kTypeMismatch, item.range(),
           fmt::format("a tensor index must be a tile, `:`, `None` or an integer, not `{}`",
                       ir::type_to_string(type)));
    }
  }

  if (ellipsis) expand_ellipsis(tensor, *ellipsis, ellipsis_at, late_slices, index);

  // Rank: every entry but `None` consumes one dimension (a variadic tile consumes all).
  bool has_variadic = false;
  int consumed = 0;
  for (const ir::IndexItem& entry : index) {
    has_variadic = has_variadic || entry.kind == ir::IndexItem::Kind::kVariadic;
    if (entry.kind != ir::IndexItem::Kind::kNewAxis &&
        entry.kind != ir::IndexItem::Kind::kVariadic) {
      ++consumed;
    }
  }
  const std::string& name = binding(tensor).name;
  if (has_variadic) {
    if (consumed > 0) {
      unsupported(subscript_range, "mixing a tile of trace-time rank with other index entries");
    }
  } else {
    const int rank = binding(tensor).type.rank;
    if (rank >= 0 && rank != consumed) {
      Diagnostic& diag = diags_.error(DiagnosticKind::kRankMismatch, subscript_range,
                                      fmt::format("`{}` has {} dimension{} but is indexed with {}",
                                                  name, rank, rank == 1 ? "" : "s", consumed));
      if (const SourceRange& fixed = kernel_.bindings[tensor].rank_evidence; fixed.valid()) {
        diag.note(fixed, fmt::format("the rank of `{}` was fixed here", name));
      }
      failed_ = true;
      throw LoweringAbort{};
    }
    refine_rank(tensor, consumed, subscript_range);
  }

  int axis = 0;
  for (const ir::IndexItem& entry : index) {
    switch (entry.kind) {
      case ir::IndexItem::Kind::kTile:
        dims->push_back(ir::Dim::tile(entry.tile_dim));
        break;
      case ir::IndexItem::Kind::kVariadic:
        dims->push_back(ir::Dim::variadic(entry.tile_dim));
        break;
      case ir::IndexItem::Kind::kFull:
        dims->push_back(ir::Dim::full(tensor, axis));
        break;
      case ir::IndexItem::Kind::kSlice:
        dims->push_back(ir::Dim::sliced(tensor, axis, entry.slice));
        break;
      case ir::IndexItem::Kind::kNewAxis:
        dims->push_back(ir::Dim::unit());
        break;
      case ir::IndexItem::Kind::kScalar:
        break;
      case ir::IndexItem::Kind::kGather:
        // The gathered axis takes the shape of the indices (`w[ids[tile_b], tile_e]` is
        // [tile_b, tile_e]).
        for (const ir::Dim& dim : entry.scalar->type.dims) dims->push_back(dim);
        break;
    }
    if (entry.kind != ir::IndexItem::Kind::kNewAxis) ++axis;
  }
  return index;
}

const SyntaxNode* KernelLowering::single_ellipsis(const std::vector<SyntaxNode>& items) {
  const SyntaxNode* found = nullptr;
  for (const SyntaxNode& item : items) {
    if (item.type() != "ellipsis") continue;
    if (found) {
      fail(DiagnosticKind::kRankMismatch, item.range(),
           "an index can only have a single ellipsis (`...`)");
    }
    found = &item;
  }
  return found;
}

void KernelLowering::expand_ellipsis(int tensor, const SyntaxNode& ellipsis, size_t at,
                                     const std::vector<std::pair<size_t, SyntaxNode>>& late_slices,
                                     ir::Index& index) {
  // `...` is as many `:` as the tensor has axes the other entries leave; the rank must be
  // known while compiling (an index's entries fix the block shapes the module prints).
  const std::string& name = binding(tensor).name;
  for (const ir::IndexItem& entry : index) {
    if (entry.kind == ir::IndexItem::Kind::kVariadic) {
      unsupported(ellipsis.range(), "`...` beside a tile of trace-time rank");
    }
  }
  const int rank = binding(tensor).type.rank;
  if (rank < 0) {
    fail(DiagnosticKind::kUnsupported, ellipsis.range(),
         fmt::format("`...` in an index of `{}`, whose rank is only known at trace time, is not "
                     "supported: helionc expands `...` while compiling (unpack `{}.shape`, or "
                     "index `{}` without `...` first, to state its rank)",
                     name, name, name));
  }
  const auto consumed = std::count_if(index.begin(), index.end(), [](const ir::IndexItem& e) {
    return e.kind != ir::IndexItem::Kind::kNewAxis;
  });
  if (consumed > rank) {
    Diagnostic& diag = diags_.error(
        DiagnosticKind::kRankMismatch, ellipsis.range(),
        fmt::format("too many indices for `{}`, a tensor of dimension {}: {} besides `...`", name,
                    rank, consumed));
    if (const SourceRange& fixed = kernel_.bindings[tensor].rank_evidence; fixed.valid()) {
      diag.note(fixed, fmt::format("the rank of `{}` was fixed here", name));
    }
    failed_ = true;
    throw LoweringAbort{};
  }
  ir::IndexItem full;
  full.kind = ir::IndexItem::Kind::kFull;
  full.range = ellipsis.range();
  const size_t added = static_cast<size_t>(rank - consumed);
  index.insert(index.begin() + static_cast<std::ptrdiff_t>(at), added, full);
  for (const auto& [position, slice] : late_slices) {
    const size_t moved = position + added;
    const auto axis = std::count_if(
        index.begin(), index.begin() + static_cast<std::ptrdiff_t>(moved),
        [](const ir::IndexItem& e) { return e.kind != ir::IndexItem::Kind::kNewAxis; });
    index[moved] = lower_tensor_slice(tensor, static_cast<int>(axis), slice);
  }
}

// The entries of an index list of `hl.load`, `hl.store` or `hl.atomic_*` (`[tile_m, tile_n]`,
// a tuple, or one index alone).
std::vector<SyntaxNode> KernelLowering::index_list(const SyntaxNode& node) {
  if (node.type() == "list" || node.type() == "tuple") return node.named_children();
  return {node};
}

ExprPtr KernelLowering::lower_hl_load(const CallArgs& args) {
  const SourceRange range = args.call.range();
  if (!in_device()) unsupported(range, "`hl.load` in host code");
  check_arity(args, "hl.load", 2, 2, {"extra_mask", "eviction_policy"});
  ExprPtr tensor = lower_expr(args.positional[0]);
  const auto* var = tensor->as<ir::VarRef>();
  if (!var || binding(var->binding).type.kind != TypeKind::kTensor) {
    fail(DiagnosticKind::kTypeMismatch, args.positional[0].range(), "`hl.load` reads a tensor");
  }
  std::vector<ir::Dim> dims;
  ir::Index index = lower_index_items(var->binding, index_list(args.positional[1]),
                                      args.positional[1].range(), &dims);
  ExprPtr load = mask_jagged_load(ir::Load::make(
      tensor, std::move(index), Type::tile_tensor(dims, binding(var->binding).type.dtype), range));
  const SyntaxNode mask_node = args.keyword("extra_mask");
  if (!mask_node || mask_node.type() == "none") return load;
  // Masked-off elements read as 0: a select after the load (the block is in VMEM already).
  ExprPtr mask = lower_expr(mask_node);
  Type type = combine_types(*mask, *load, ArithKind::kComparison, range);
  type.dtype = load->type.dtype;
  ExprPtr zero = ir::Call::make(ir::Intrinsic::kFullLike,
                                {load, ir::IntImm::make(0, range), ir::NoneImm::make(range)},
                                load->type, range);
  return ir::Call::make(ir::Intrinsic::kWhere, {mask, load, zero}, std::move(type), range);
}

void KernelLowering::lower_hl_store(const CallArgs& args, ir::Block& out) {
  const SourceRange range = args.call.range();
  check_arity(args, "hl.store", 3, 3, {"extra_mask"});
  ExprPtr tensor = lower_expr(args.positional[0]);
  const auto* var = tensor->as<ir::VarRef>();
  if (!var || binding(var->binding).type.kind != TypeKind::kTensor) {
    fail(DiagnosticKind::kTypeMismatch, args.positional[0].range(), "`hl.store` writes a tensor");
  }
  std::vector<ir::Dim> dims;
  ir::Index index = lower_index_items(var->binding, index_list(args.positional[1]),
                                      args.positional[1].range(), &dims);
  ExprPtr value = lower_expr(args.positional[2]);
  if (const SyntaxNode mask_node = args.keyword("extra_mask");
      mask_node && mask_node.type() != "none") {
    // Masked-off elements keep their old values: read them and select.
    ExprPtr mask = lower_expr(mask_node);
    ExprPtr old = ir::Load::make(tensor, index,
                                 Type::tile_tensor(dims, binding(var->binding).type.dtype), range);
    Type type = combine_types(*mask, *old, ArithKind::kComparison, range);
    type.dtype = value->type.dtype;
    value = ir::Call::make(ir::Intrinsic::kWhere, {mask, value, old}, std::move(type), range);
  }
  append_store(std::move(tensor), std::move(index), dims, std::move(value), range,
               args.positional[0].text(), out);
}

}  // namespace helionc::frontend
