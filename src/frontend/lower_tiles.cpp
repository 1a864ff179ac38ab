// Tile loops: `for ... in hl.tile(...)` / `hl.grid(...)` at the top level of a kernel (one
// launch each) and inside device code (inner loops, lower_inner_loops.cpp), their tile
// dimensions and block sizes, and `hl.register_block_size`.
#include <fmt/format.h>

#include <algorithm>

#include "frontend/function_table.h"
#include "frontend/kernel_lowering.h"
#include "ir/visitor.h"

namespace helionc::frontend {

using ir::BlockSource;
using ir::ExprPtr;
using ir::Intrinsic;
using ir::Type;
using ir::TypeKind;

namespace {

// A scalar read from a tensor that can bound a tile loop: 0-d, integral or of a dtype known
// only at trace time (an offsets tensor's parameter).
bool is_tensor_scalar_bound(const Type& type) {
  return type.kind == TypeKind::kTileTensor && type.tile_rank() == 0 &&
         (!type.dtype || ir::is_integral(*type.dtype));
}

}  // namespace

bool KernelLowering::unrolled_iterable(const SyntaxNode& iterable) {
  // A list known while compiling: written out, a comprehension or `list(...)`/`tuple(...)`.
  // (A name bound to a list or tuple is lower_pack_for's, as names of tuples of tensors are.)
  const std::string_view type = iterable.type();
  if (type == "list" || type == "tuple" || type == "list_comprehension") return true;
  if (type != "call") return false;
  const SyntaxNode callee = iterable.child_by_field("function");
  return callee.type() == "identifier" && (callee.text() == "list" || callee.text() == "tuple") &&
         !scope_.count(callee.text());
}

void KernelLowering::lower_for(const SyntaxNode& node, ir::Block& out) {
  const SyntaxNode iterable = node.child_by_field("right");
  const SyntaxNode target = node.child_by_field("left");
  std::optional<std::string> callee;
  if (iterable.type() == "call")
    callee = imports_.qualified_name(iterable.child_by_field("function"));
  const bool is_tile = callee == "helion.language.tile";
  const bool is_grid = callee == "helion.language.grid";
  const bool is_jagged = callee == "helion.language.jagged_tile";
  if (!is_tile && !is_grid && !is_jagged) {
    if (callee == "helion.language.static_range") {
      return lower_static_range(node, out, "hl.static_range");
    }
    const SyntaxNode function = iterable.child_by_field("function");
    if (!callee && iterable.type() == "call" && function.type() == "identifier" &&
        function.text() == "range" && !scope_.count("range")) {
      return lower_static_range(node, out, "range");
    }
    if (lower_pack_for(node, out)) return;
    if (in_device() && unrolled_iterable(iterable)) return lower_unrolled_for(node, out);
    // A name whose assignment failed was reported there (lower_identifier stays quiet).
    if (iterable.type() == "identifier" && scope_.count(iterable.text()))
      lower_identifier(iterable);
    // `hl.tiel(...)`: the misspelled name is the cause.
    const std::string typo =
        callee ? did_you_mean_function(*callee, iterable.child_by_field("function").text()) : "";
    fail(DiagnosticKind::kUnsupported, iterable.range(),
         std::string(in_device()
                         ? "only `for` loops over `hl.tile(...)`, `hl.grid(...)`, `range(...)`, "
                           "`hl.static_range(...)` or a list or tuple written out are supported in "
                           "device code"
                         : "only `for` loops over `hl.tile(...)` or `hl.grid(...)` are supported "
                           "in host code") +
             typo);
  }
  if (node.child_by_field("alternative")) unsupported(node.range(), "`for ... else`");

  if (is_jagged) {
    // One dimension, without `block_size=`: nothing to state about ranks.
  } else if (target.type() == "pattern_list" || target.type() == "tuple_pattern") {
    state_rank_of_tiled_shape(iterable, target.named_children().size(), target.range());
  } else if (const SyntaxNode block = split_args(iterable).keyword("block_size");
             block && (block.type() == "list" || block.type() == "tuple")) {
    state_rank_of_tiled_shape(iterable, block.named_children().size(), block.range());
  }
  const std::vector<int> dims =
      is_jagged ? lower_jagged_tile_spec(iterable) : lower_tile_spec(iterable, is_grid);
  name_tile_dims(target, dims);
  // `for index in hl.grid(x.size())`: one element per step, any rank. Its body may only index
  // with `index` alone and compute elementwise, so it runs as `hl.tile(x.size())` does, a
  // block of elements per step.
  const bool grid_as_tile = is_grid && dims.size() == 1 && kernel_.tile_dims[dims[0]].variadic &&
                            !in_device() && target.type() == "identifier";

  // Loop variables: one per tile dimension, or one standing for all of them.
  std::vector<int> vars;
  const size_t first_binding = kernel_.bindings.size();
  // An inner `hl.grid` (in device code) tiles with blocks of one element: its loop variables
  // are tiles, hidden behind the names the source gives its indices (bound below).
  const bool inner_grid = is_grid && in_device() && !grid_as_tile;
  const auto var_type = [&](int dim) {
    return is_grid && !grid_as_tile && !inner_grid
               ? Type::scalar(TypeKind::kInt)
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

  // The names the source gives the indices of an inner `hl.grid` (each its tile's `begin`, an
  // int the body computes with and indexes by: passes/inline_index_scalars.h writes it into the
  // indices) and of a launch's grid with a step (the index its steps reach). The loop variable
  // takes another name in the module (`NAME_SUFFIX`), the index keeps the source's.
  ir::Block indices;
  const auto bind_index = [&](size_t i, std::string_view suffix, bool tile) {
    const ir::Binding var = binding(vars[i]);  // a copy: bind() grows kernel_.bindings
    const std::string renamed = fmt::format("{}_{}", var.name, suffix);
    kernel_.bindings[static_cast<size_t>(vars[i])].name = renamed;
    if (tile) kernel_.tile_dims[static_cast<size_t>(dims[i])].name = renamed;
    const int index =
        bind(var.name, Type::scalar(TypeKind::kInt), ir::Binding::Origin::kDevice, var.range);
    ir::ExprPtr count = tile ? ir::TileAttr::make(dims[i], ir::TileAttrKind::kBegin,
                                                  Type::scalar(TypeKind::kInt), var.range)
                             : ir::VarRef::make(vars[i], var.type, var.range);
    indices.push_back(
        ir::Let::make(index, stepped_index(dims[i], std::move(count), var.range), var.range));
  };
  for (size_t i = 0; i < vars.size(); ++i) {
    if (inner_grid) {
      bind_index(i, "tile", /*tile=*/true);
    } else if (is_grid && grid_steps_.count(dims[i])) {
      bind_index(i, "step", /*tile=*/false);
    }
  }
  // An inner loop (inside device code) carries the names its body rebinds.
  const bool inner = in_device();
  std::vector<ir::TileLoop::Carry> carried;
  for (const int dim : dims) {
    const ir::BlockSource& block = kernel_.tile_dims[static_cast<size_t>(dim)].block;
    if (block.kind == ir::BlockSource::Kind::kTunable) open_tunables_.push_back(block.tunable);
  }
  ir::Block body = lower_loop_body(node, first_binding, inner ? &carried : nullptr);
  for (const int dim : dims) {
    if (kernel_.tile_dims[static_cast<size_t>(dim)].block.kind == ir::BlockSource::Kind::kTunable)
      open_tunables_.pop_back();
  }
  body.insert(body.begin(), indices.begin(), indices.end());
  if (grid_as_tile) check_elementwise_grid(body, vars.front(), node.range());
  ir::StmtPtr loop =
      ir::TileLoop::make(dims, std::move(vars), std::move(body), node.range(), std::move(carried));
  if (!inner) flush_size_checks(out);
  out.push_back(loop);
  if (!inner) write_back_views(loop->as<ir::TileLoop>()->body, out);
}

ExprPtr KernelLowering::stepped_index(int dim, ExprPtr count, SourceRange range) const {
  const auto it = grid_steps_.find(dim);
  if (it == grid_steps_.end()) return count;
  const auto& [begin, step] = it->second;
  const Type type = Type::scalar(TypeKind::kInt);
  ExprPtr index = ir::Binary::make(ir::BinaryOp::kMul, std::move(count), step, type, range);
  return begin ? ir::Binary::make(ir::BinaryOp::kAdd, begin, std::move(index), type, range) : index;
}

namespace {

// Whether a loop body computes element by element from loads and stores at `[var]` alone: an
// `hl.grid(x.size())` body that a block of elements per step runs as one element per step
// would. Reports the first node that is not (nullptr when all are).
class ElementwiseCheck : public ir::Visitor {
 public:
  explicit ElementwiseCheck(int var) : var_(var) {}
  const ir::Expr* offending_expr = nullptr;
  const ir::Stmt* offending_stmt = nullptr;

 protected:
  void visit_node(const ir::Call& node) override {
    const bool elementwise =
        node.op == Intrinsic::kCast ||
        (ir::intrinsic_cost(node.op).basis == ir::IntrinsicCost::Basis::kResult &&
         node.op != Intrinsic::kRand && node.op != Intrinsic::kRandint);
    if (!elementwise) note(node);
    Visitor::visit_node(node);
  }
  void visit_node(const ir::Load& node) override {
    if (!indexed_by_var(node.index)) note(node);
  }
  void visit_node(const ir::TileAttr& node) override { note(node); }
  void visit_node(const ir::TupleExpr& node) override { note(node); }
  void visit_node(const ir::TupleGet& node) override { note(node); }
  void visit_node(const ir::VarRef& node) override {
    if (node.binding == var_) note(node);  // the index itself, other than as the subscript
  }
  void visit_node(const ir::Store& node) override {
    if (!indexed_by_var(node.index) && offending_stmt == nullptr) offending_stmt = &node;
    visit(node.value);
  }
  void visit_node(const ir::TileLoop& node) override {
    if (offending_stmt == nullptr) offending_stmt = &node;
  }
  void visit_node(const ir::StaticLoop& node) override {
    if (offending_stmt == nullptr) offending_stmt = &node;
  }

 private:
  bool indexed_by_var(const ir::Index& index) const {
    return index.size() == 1 && index[0].kind == ir::IndexItem::Kind::kVariadic;
  }
  void note(const ir::Expr& node) {
    if (offending_expr == nullptr) offending_expr = &node;
  }
  int var_;
};

}  // namespace

void KernelLowering::check_elementwise_grid(const ir::Block& body, int var, SourceRange loop) {
  ElementwiseCheck check(var);
  check.visit(body);
  SourceRange where = loop;
  if (check.offending_stmt != nullptr) {
    where = check.offending_stmt->range;
  } else if (check.offending_expr != nullptr) {
    where = check.offending_expr->range;
  } else {
    return;
  }
  fail(DiagnosticKind::kUnsupported, where,
       fmt::format("in a rank-polymorphic `hl.grid(x.size())` loop, work other than elementwise "
                   "on `x[{}]` is not supported yet; compute on a tile of "
                   "`hl.tile(x.size())` instead",
                   binding(var).name));
}

void KernelLowering::state_rank_of_tiled_shape(const SyntaxNode& call, size_t rank,
                                               SourceRange evidence) {
  // `for a, b in hl.tile(x.size())` (or `block_size=[32, 16]`) says x has two dimensions, as
  // `m, n = x.size()` does.
  SyntaxNode shape;  // the last positional argument: the end
  for (const SyntaxNode& arg : call.child_by_field("arguments").named_children()) {
    if (arg.type() != "keyword_argument") shape = arg;
  }
  if (!shape) return;
  SyntaxNode attribute = shape;
  if (shape.type() == "call") {
    if (!shape.child_by_field("arguments").named_children().empty()) return;
    attribute = shape.child_by_field("function");
  }
  if (attribute.type() != "attribute") return;
  const std::string_view attr = attribute.child_by_field("attribute").text();
  if (!(shape.type() == "call" ? attr == "size" : attr == "shape")) return;
  const SyntaxNode object = attribute.child_by_field("object");
  if (object.type() != "identifier") return;
  const auto it = scope_.find(object.text());
  if (it == scope_.end() || binding(it->second).type.kind != TypeKind::kTensor) return;
  if (binding(it->second).type.rank < 0) refine_rank(it->second, static_cast<int>(rank), evidence);
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
  // `hl.grid(end)`, `(begin, end)` or `(begin, end, step)` (or `step=`), as `range` takes them.
  check_arity(args, shown, 1, grid ? 3 : 2,
              grid ? std::initializer_list<std::string_view>{"step"}
                   : std::initializer_list<std::string_view>{"block_size"});
  const SourceRange range = call.range();

  // Extents, as lists of per-dimension expressions (or one variadic shape).
  auto as_sizes = [&](const SyntaxNode& node) -> std::vector<ExprPtr> {
    ExprPtr value = lower_expr(node);
    if (value->type.kind == TypeKind::kInt) return {value};
    // A bound read from a tensor in device code (`start = offsets[g]`): a 0-d integer tile
    // tensor, one scalar per outer step; the loop's range is then only known in the kernel.
    if (is_tensor_scalar_bound(value->type)) return {value};
    // A list mixing ints and bounds read from tensors (`hl.tile([s, 0], [e, d])`).
    if (const auto* list = value->as<ir::TupleExpr>();
        list && value->type.kind == TypeKind::kTuple &&
        std::all_of(list->elements.begin(), list->elements.end(), [](const ExprPtr& element) {
          return element->type.kind == TypeKind::kInt || is_tensor_scalar_bound(element->type);
        })) {
      return list->elements;
    }
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
  const size_t bounds = std::min<size_t>(args.positional.size(), 2);
  std::vector<ExprPtr> ends = as_sizes(args.positional[bounds - 1]);
  if (bounds == 2) {
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

  // Steps of a grid: one int per dimension, known before the kernel runs; null for 1.
  std::vector<ExprPtr> steps;
  if (const SyntaxNode step_node = grid ? argument(args, 2, "step") : SyntaxNode();
      step_node && step_node.type() != "none") {
    if (variadic) unsupported(step_node.range(), "a step for a grid of trace-time rank");
    steps = as_sizes(step_node);
    if (steps.size() != ends.size()) {
      fail(DiagnosticKind::kRankMismatch, step_node.range(),
           fmt::format("`{}` got {} step{} for {} end{}", shown, steps.size(),
                       steps.size() == 1 ? "" : "s", ends.size(), ends.size() == 1 ? "" : "s"));
    }
    for (size_t i = 0; i < steps.size(); ++i) {
      ExprPtr& step = steps[i];
      if (step->type.kind != TypeKind::kInt || is_device_value(step)) {
        fail(DiagnosticKind::kTypeMismatch, step->range,
             fmt::format("the step of `{}` must be an int known before the kernel runs, not {}",
                         shown, known_when(step)));
      }
      const bool bounds_known = ends[i]->type.kind == TypeKind::kInt &&
                                (begins.empty() || begins[i]->type.kind == TypeKind::kInt);
      if (const auto* neg = step->as<ir::Unary>();
          neg && neg->op == ir::UnaryOp::kNeg && neg->operand->as<ir::IntImm>()) {
        fail(DiagnosticKind::kBadArgument, step->range,
             fmt::format("the step of `{}` must be positive, not -{}", shown,
                         neg->operand->as<ir::IntImm>()->value));
      }
      if (const auto* imm = step->as<ir::IntImm>()) {
        // A step must be positive, as the launch counts `cdiv(end - begin, step)` steps.
        if (imm->value <= 0) {
          fail(DiagnosticKind::kBadArgument, step->range,
               fmt::format("the step of `{}` must be positive, not {}", shown, imm->value));
        }
        if (imm->value == 1) {
          step = nullptr;
          continue;
        }
      } else {
        // Known only when the kernel is called: checked there, before the launch.
        const std::string text = fmt::format("the step of `{}` must be positive; it is ", shown);
        pending_size_checks_.push_back(ir::Assert::make(
            ir::Compare::make(ir::CompareOp::kGt, step, ir::IntImm::make(0, step->range),
                              Type::scalar(TypeKind::kBool), step->range),
            ir::StringImm::make(fmt::format("\"{}\"", text), step->range), step->range,
            /*implied=*/true));
      }
      if (!bounds_known) {
        unsupported(step->range,
                    fmt::format("a step in `{}` with bounds read from tensors", shown));
      }
    }
  }

  // Block sizes: tunable unless `block_size=` fixes them.
  std::vector<BlockSource> blocks(ends.size());
  // `hl.grid(x.size())` at the top level runs as a rank-polymorphic tile (lower_for checks
  // that its body is elementwise, where blocks of elements give the same values).
  const bool grid_as_tile = grid && variadic && !in_device();
  if (grid_as_tile) {
    // Such loops share one tunable: each takes the rest of `block_sizes` from there.
    blocks[0].tunable = variadic_grid_tunable_;
  } else if (grid && in_device()) {
    // An inner `hl.grid` runs as Helion runs it: tiles of one element, whose index the loop
    // variable is (lower_for binds it to `tile.begin`).
    for (BlockSource& block : blocks) {
      block.kind = BlockSource::Kind::kFixed;
      block.size = ir::IntImm::make(1, range);
    }
  } else if (grid) {
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
    ExprPtr end = ends[i];
    const ExprPtr step = steps.empty() ? nullptr : steps[i];
    if (step) {
      // The dimension counts the steps, `cdiv(end - begin, step)` of them, from 0; the loop's
      // index is `begin + count * step` (stepped_index).
      const auto arith = [&](ir::BinaryOp op, ExprPtr lhs, ExprPtr rhs) {
        return ir::Binary::make(op, std::move(lhs), std::move(rhs), Type::scalar(TypeKind::kInt),
                                range);
      };
      ExprPtr span = begin ? arith(ir::BinaryOp::kSub, end, begin) : end;
      end = arith(ir::BinaryOp::kFloorDiv,
                  arith(ir::BinaryOp::kSub, arith(ir::BinaryOp::kAdd, span, step),
                        ir::IntImm::make(1, range)),
                  step);
    }
    dims.push_back(new_tile_dim(fmt::format("tile_{}", kernel_.tile_dims.size()),
                                step ? nullptr : begin, end, blocks[i], variadic, range));
    if (step) grid_steps_[dims.back()] = {begin, step};
  }
  if (grid_as_tile) variadic_grid_tunable_ = kernel_.tile_dims[dims[0]].block.tunable;
  return dims;
}

void KernelLowering::lower_register_block_size(const SyntaxNode& target, const SyntaxNode& call,
                                               ir::Block& out) {
  if (in_device()) unsupported(call.range(), "`hl.register_block_size` in device code");
  const CallArgs args = split_args(call);
  check_arity(args, "hl.register_block_size", 1, 2, {});
  std::vector<ExprPtr> bounds;
  for (const SyntaxNode& arg : args.positional) {
    // The bounds only narrow the search space (Helion's autotuner searches within them).
    bounds.push_back(lower_expr(arg));
    if (bounds.back()->type.kind != TypeKind::kInt) {
      fail(DiagnosticKind::kTypeMismatch, arg.range(), "a block-size bound must be an integer");
    }
  }
  if (variadic_tunable_seen_) {
    unsupported(call.range(), "a block size registered after a rank-polymorphic tile");
  }
  const int tunable = kernel_.num_tunable_blocks++;
  kernel_.tunable_block_ranges.resize(kernel_.num_tunable_blocks);
  kernel_.tunable_block_ranges[tunable] = bounds.size() == 2
                                              ? ir::Kernel::BlockRange{bounds[0], bounds[1]}
                                              : ir::Kernel::BlockRange{nullptr, bounds[0]};
  // The binding stands for the block size. Its Let stays only if the kernel reads the value
  // (lower_identifier notes it; drop_unread_block_values removes the others), so a block size
  // passed only as `block_size=` prints nothing and stays free to shrink.
  const int id = bind(std::string(target.text()), Type::scalar(TypeKind::kInt),
                      ir::Binding::Origin::kHost, target.range());
  registered_block_sizes_[id] = tunable;
  out.push_back(ir::Let::make(
      id,
      ir::Call::make(Intrinsic::kBlockValue, {ir::IntImm::make(tunable, call.range())},
                     Type::scalar(TypeKind::kInt), call.range()),
      target.range()));
}

void KernelLowering::drop_unread_block_values() {
  kernel_.block_value_bindings.assign(static_cast<size_t>(kernel_.num_tunable_blocks), -1);
  for (const auto& [binding, tunable] : registered_block_sizes_) {
    if (read_block_values_.count(binding)) {
      kernel_.block_value_bindings[static_cast<size_t>(tunable)] = binding;
    }
  }
  // `hl.register_block_size` is host code: at the top level or in host `if`s.
  kernel_.body = ir::without_host_lets(kernel_.body, [&](const ir::Let& let) {
    const auto* call = let.value->as<ir::Call>();
    return call && call->op == Intrinsic::kBlockValue && let.targets.size() == 1 &&
           !read_block_values_.count(let.targets[0]);
  });
}

}  // namespace helionc::frontend
