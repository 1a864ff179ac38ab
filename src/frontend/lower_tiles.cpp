// Tile loops and subscripts: `for ... in hl.tile(...)` / `hl.grid(...)` at the top level of a
// kernel (one launch each), and `x[tile_m, :]`-style indexing in device code.
#include <fmt/format.h>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::BlockSource;
using ir::ExprPtr;
using ir::Intrinsic;
using ir::Type;
using ir::TypeKind;

void KernelLowering::lower_for(const SyntaxNode& node, ir::Block& out) {
  const SyntaxNode iterable = node.child_by_field("right");
  const SyntaxNode target = node.child_by_field("left");
  std::optional<std::string> callee;
  if (iterable.type() == "call")
    callee = imports_.qualified_name(iterable.child_by_field("function"));
  const bool is_tile = callee == "helion.language.tile";
  const bool is_grid = callee == "helion.language.grid";
  if (!is_tile && !is_grid) {
    if (callee == "helion.language.static_range") {
      unsupported(iterable.range(), "`hl.static_range`");
    }
    fail(DiagnosticKind::kUnsupported, iterable.range(),
         "only `for` loops over `hl.tile(...)` or `hl.grid(...)` are supported in a kernel");
  }
  if (in_device()) unsupported(node.range(), "a nested tile loop (an inner loop)");
  if (node.child_by_field("alternative")) unsupported(node.range(), "`for ... else`");

  const std::vector<int> dims = lower_tile_spec(iterable, is_grid);
  name_tile_dims(target, dims);

  // Loop variables: one per tile dimension, or one standing for all of them.
  std::vector<int> vars;
  const size_t first_binding = kernel_.bindings.size();
  const auto var_type = [&](int dim) {
    return is_grid ? Type::scalar(TypeKind::kInt)
                   : Type::tile({dim}, kernel_.tile_dims[dim].variadic);
  };
  if (target.type() == "identifier") {
    Type type = dims.size() == 1 ? var_type(dims[0]) : Type::tile(dims, false);
    if (is_grid && dims.size() > 1) {
      fail(DiagnosticKind::kUnsupported, target.range(),
           "unpack the indices of a multi-dimensional `hl.grid` (`for i, j in hl.grid(...)`)");
    }
    vars.push_back(bind(std::string(target.text()), std::move(type), ir::Binding::Origin::kLoopVar,
                        target.range()));
  } else if (target.type() == "pattern_list" || target.type() == "tuple_pattern") {
    const auto names = target.named_children();
    if (dims.size() == 1 && kernel_.tile_dims[dims[0]].variadic) {
      fail(DiagnosticKind::kRankMismatch, target.range(),
           "cannot unpack the tiles of a shape whose rank is only known at trace time");
    }
    if (names.size() != dims.size()) {
      fail(DiagnosticKind::kRankMismatch, target.range(),
           fmt::format("the loop has {} {} dimension{} but {} loop variable{}", dims.size(),
                       is_grid ? "grid" : "tile", dims.size() == 1 ? "" : "s", names.size(),
                       names.size() == 1 ? "" : "s"));
    }
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i].type() != "identifier") unsupported(names[i].range(), "this loop target");
      vars.push_back(bind(std::string(names[i].text()), var_type(dims[i]),
                          ir::Binding::Origin::kLoopVar, names[i].range()));
    }
  } else {
    unsupported(target.range(), "this loop target");
  }

  ++device_depth_;
  ir::Block body = lower_block(node.child_by_field("body"));
  --device_depth_;

  // Tiles and device values die with the loop; a later use is an error that points here.
  const SourceRange end_of_loop = file_.range(node.end_byte(), node.end_byte());
  for (size_t id = first_binding; id < kernel_.bindings.size(); ++id) {
    closed_[static_cast<int>(id)] = end_of_loop;
  }
  ir::StmtPtr loop = ir::TileLoop::make(dims, std::move(vars), std::move(body), node.range());
  out.push_back(loop);
  write_back_views(loop->as<ir::TileLoop>()->body, out);
}

void KernelLowering::name_tile_dims(const SyntaxNode& target, const std::vector<int>& dims) {
  if (target.type() == "identifier") {
    const std::string name(target.text());
    for (size_t i = 0; i < dims.size(); ++i) {
      kernel_.tile_dims[dims[i]].name = dims.size() == 1 ? name : fmt::format("{}_{}", name, i);
    }
    return;
  }
  const auto names = target.named_children();
  for (size_t i = 0; i < dims.size() && i < names.size(); ++i) {
    kernel_.tile_dims[dims[i]].name = std::string(names[i].text());
  }
}

int KernelLowering::new_tile_dim(std::string name, ExprPtr begin, ExprPtr end, BlockSource block,
                                 bool variadic, SourceRange range) {
  if (block.kind == BlockSource::Kind::kTunable && block.tunable < 0) {
    if (variadic_tunable_seen_) {
      unsupported(range,
                  "a tunable tile after a rank-polymorphic `hl.tile(x.size())` loop (its block "
                  "sizes take the rest of `block_sizes`)");
    }
    block.tunable = kernel_.num_tunable_blocks++;
    variadic_tunable_seen_ = variadic;
  }
  const int id = static_cast<int>(kernel_.tile_dims.size());
  ir::TileDim dim;
  dim.id = id;
  dim.name = std::move(name);
  dim.begin = std::move(begin);
  dim.extent = std::move(end);
  dim.block = std::move(block);
  dim.variadic = variadic;
  dim.range = range;
  kernel_.tile_dims.push_back(std::move(dim));
  return id;
}

std::vector<int> KernelLowering::lower_tile_spec(const SyntaxNode& call, bool grid) {
  const CallArgs args = split_args(call);
  const std::string shown(call.child_by_field("function").text());
  check_arity(args, shown, 1, 2,
              grid ? std::initializer_list<std::string_view>{}
                   : std::initializer_list<std::string_view>{"block_size"});
  const SourceRange range = call.range();

  // Extents, as lists of per-dimension expressions (or one variadic shape).
  auto as_sizes = [&](const SyntaxNode& node) -> std::vector<ExprPtr> {
    ExprPtr value = lower_expr(node);
    if (value->type.kind == TypeKind::kInt) return {value};
    if (value->type.kind != TypeKind::kShape) {
      fail(DiagnosticKind::kTypeMismatch, node.range(),
           fmt::format("`{}` takes sizes (an int, a list of ints or `x.size()`), not `{}`", shown,
                       ir::type_to_string(value->type)));
    }
    if (value->type.rank < 0) return {value};  // rank known at trace time: one variadic dim
    std::vector<ExprPtr> sizes;
    if (const auto* tuple = value->as<ir::TupleExpr>()) return tuple->elements;
    const auto* shape_of = value->as<ir::Call>();
    for (int i = 0; i < value->type.rank; ++i) {
      if (shape_of && shape_of->op == Intrinsic::kShapeOf) {
        sizes.push_back(ir::Call::make(Intrinsic::kSize,
                                       {shape_of->args[0], ir::IntImm::make(i, node.range())},
                                       Type::scalar(TypeKind::kInt), node.range()));
      } else {
        sizes.push_back(ir::TupleGet::make(value, i, Type::scalar(TypeKind::kInt), node.range()));
      }
    }
    return sizes;
  };

  std::vector<ExprPtr> begins;
  std::vector<ExprPtr> ends = as_sizes(args.positional.back());
  if (args.positional.size() == 2) {
    begins = as_sizes(args.positional[0]);
    if (begins.size() != ends.size()) {
      fail(DiagnosticKind::kRankMismatch, range,
           fmt::format("`{}` got {} begin{} for {} end{}", shown, begins.size(),
                       begins.size() == 1 ? "" : "s", ends.size(), ends.size() == 1 ? "" : "s"));
    }
  }
  const bool variadic = ends.size() == 1 && ends[0]->type.kind == TypeKind::kShape;
  if (variadic && !begins.empty()) {
    unsupported(range, "begins for a tile of trace-time rank");
  }

  // Block sizes: tunable unless `block_size=` fixes them.
  std::vector<BlockSource> blocks(ends.size());
  if (grid) {
    for (BlockSource& block : blocks) block.kind = BlockSource::Kind::kGrid;
  } else if (const SyntaxNode block_node = args.keyword("block_size")) {
    if (block_node.type() != "none") {
      const bool listed = block_node.type() == "list" || block_node.type() == "tuple";
      const std::vector<SyntaxNode> entries =
          listed ? block_node.named_children() : std::vector<SyntaxNode>{block_node};
      if (variadic || entries.size() != ends.size()) {
        fail(DiagnosticKind::kRankMismatch, block_node.range(),
             fmt::format("`block_size` needs one entry per tile dimension ({})", ends.size()));
      }
      std::vector<ExprPtr> sizes;
      for (size_t i = 0; i < entries.size(); ++i) {
        // A block size from hl.register_block_size: the loops share one tunable.
        auto registered =
            entries[i].type() == "identifier" ? scope_.find(entries[i].text()) : scope_.end();
        if (registered != scope_.end() && registered_block_sizes_.count(registered->second)) {
          blocks[i].tunable = registered_block_sizes_.at(registered->second);
          sizes.push_back(nullptr);
          continue;
        }
        sizes.push_back(lower_expr(entries[i]));
      }
      for (size_t i = 0; i < sizes.size(); ++i) {
        if (!sizes[i] || sizes[i]->type.kind == TypeKind::kNone) continue;  // tunable
        if (sizes[i]->type.kind != TypeKind::kInt) {
          fail(DiagnosticKind::kTypeMismatch, sizes[i]->range, "a block size must be an integer");
        }
        blocks[i].kind = BlockSource::Kind::kFixed;
        blocks[i].size = sizes[i];
      }
    }
  }

  std::vector<int> dims;
  for (size_t i = 0; i < ends.size(); ++i) {
    ExprPtr begin = begins.empty() ? nullptr : begins[i];
    if (const auto* imm = begin ? begin->as<ir::IntImm>() : nullptr; imm && imm->value == 0) {
      begin = nullptr;
    }
    dims.push_back(new_tile_dim(fmt::format("tile_{}", kernel_.tile_dims.size()), begin, ends[i],
                                blocks[i], variadic, range));
  }
  return dims;
}

ir::Index KernelLowering::lower_index(int tensor, const SyntaxNode& subscript_node,
                                      std::vector<ir::Dim>* dims) {
  return lower_index_items(tensor, subscript_node.children_by_field("subscript"),
                           subscript_node.range(), dims);
}

ir::Index KernelLowering::lower_index_items(int tensor, const std::vector<SyntaxNode>& items,
                                            SourceRange subscript_range,
                                            std::vector<ir::Dim>* dims) {
  ir::Index index;
  for (const SyntaxNode& item : items) {
    ir::IndexItem entry;
    entry.range = item.range();
    if (item.type() == "slice") {
      if (!item.named_children().empty()) unsupported(item.range(), "slicing with bounds");
      entry.kind = ir::IndexItem::Kind::kFull;
      index.push_back(entry);
      continue;
    }
    if (item.type() == "none") {
      entry.kind = ir::IndexItem::Kind::kNewAxis;
      index.push_back(entry);
      continue;
    }
    if (item.type() == "ellipsis") unsupported(item.range(), "`...` in an index");
    ExprPtr value = lower_expr(item);
    const Type& type = value->type;
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
      auto it = rank_evidence_.find(tensor);
      if (it != rank_evidence_.end()) {
        diag.note(it->second, fmt::format("the rank of `{}` was fixed here", name));
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

}  // namespace helionc::frontend

namespace helionc::frontend {

void KernelLowering::lower_register_block_size(const SyntaxNode& target, const SyntaxNode& call) {
  if (in_device()) unsupported(call.range(), "`hl.register_block_size` in device code");
  const CallArgs args = split_args(call);
  check_arity(args, "hl.register_block_size", 1, 2, {});
  for (const SyntaxNode& arg : args.positional) {
    // The bounds only narrow the search space; they are checked for being sizes.
    if (lower_expr(arg)->type.kind != TypeKind::kInt) {
      fail(DiagnosticKind::kTypeMismatch, arg.range(), "a block-size bound must be an integer");
    }
  }
  if (variadic_tunable_seen_) {
    unsupported(call.range(), "a block size registered after a rank-polymorphic tile");
  }
  const int tunable = kernel_.num_tunable_blocks++;
  // The binding stands for the block size; using it other than as `block_size=` is reported
  // where it happens (the value is known only once the config is legalised).
  const int id = bind(std::string(target.text()), Type::scalar(TypeKind::kInt),
                      ir::Binding::Origin::kHost, target.range());
  registered_block_sizes_[id] = tunable;
  poisoned_[id] = fmt::format(
      "`{}` is a registered block size; it can only be passed as `block_size=` of `hl.tile` "
      "(using its value is not supported yet)",
      target.text());
}

}  // namespace helionc::frontend

namespace helionc::frontend {

namespace {

// The entries of `hl.load`'s/`hl.store`'s index list (`[tile_m, tile_n]`).
std::vector<SyntaxNode> index_list(const SyntaxNode& node) {
  if (node.type() == "list" || node.type() == "tuple") return node.named_children();
  return {node};
}

}  // namespace

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
  ExprPtr load = ir::Load::make(tensor, std::move(index),
                                Type::tile_tensor(dims, binding(var->binding).type.dtype), range);
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
  if (value->type.kind == TypeKind::kTileTensor) {
    const auto merged = broadcast_dims(dims, value->type.dims);
    if (!merged || *merged != dims) {
      fail(DiagnosticKind::kShapeMismatch, range,
           fmt::format("cannot store a value of shape {} into a block of shape {}",
                       dims_to_string(kernel_, value->type.dims), dims_to_string(kernel_, dims)));
    }
  }
  out.push_back(ir::Store::make(std::move(tensor), std::move(index), std::move(value), range));
}

}  // namespace helionc::frontend
