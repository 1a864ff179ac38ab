// Operations on tile values beyond elementwise math: reductions (sum, mean, amax, ..., argmax),
// softmax/log_softmax, shape ops ([:, None], unsqueeze, squeeze, reshape/view, transpose,
// permute, expand, .T), creation (hl.full, hl.zeros, hl.arange), and tile attributes
// (tile.index, ...).
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "frontend/function_table.h"
#include "frontend/kernel_lowering.h"
#include "ir/printer.h"
#include "ir/visitor.h"
#include "support/internal_check.h"

namespace helionc::frontend {

using ir::Dim;
using ir::ExprPtr;
using ir::Intrinsic;
using ir::ScalarType;
using ir::Type;
using ir::TypeKind;

namespace {

// PyTorch's result dtype of a reduction; 64-bit results (integer sums, indices) narrowed to
// 32 bits, since TPUs have no 64-bit types.
std::optional<ScalarType> reduction_dtype(Intrinsic op, const std::optional<ScalarType>& input) {
  if (op == Intrinsic::kArgmax || op == Intrinsic::kArgmin) return ScalarType::kInt32;
  if (!input) return std::nullopt;
  if ((op == Intrinsic::kSum || op == Intrinsic::kProd) && !ir::is_floating(*input)) {
    return ScalarType::kInt32;
  }
  return input;
}

// The tile-tensor dimension a size denotes (Helion's tiles as sizes): a tile or its
// `.block_size` is the tile's block, `x.size(d)` / `x.shape[d]` all of axis d of x, 1 a unit
// dimension, a larger number a literal size. Other sizes (a host int computed from others)
// have no dimension helionc can name: nullopt.
std::optional<Dim> size_dim(const ir::Kernel& kernel, const ExprPtr& size) {
  const Type& type = size->type;
  if (type.kind == TypeKind::kTile && type.tile_dims.size() == 1 && !type.variadic) {
    return Dim::tile(type.tile_dims[0]);
  }
  if (const auto* attr = size->as<ir::TileAttr>();
      attr && attr->attr == ir::TileAttrKind::kBlockSize) {
    return Dim::tile(attr->tile_dim);
  }
  if (const auto* imm = size->as<ir::IntImm>()) {
    // A number: 1 is a unit dimension, a larger one a literal size (lower_literal_sizes.cpp).
    if (imm->value == 1) return Dim::unit();
    if (imm->value > 1) return Dim::literal(imm->value);
    return std::nullopt;
  }
  if (const auto* call = size->as<ir::Call>(); call && call->op == Intrinsic::kSize) {
    const auto* tensor = call->args[0]->as<ir::VarRef>();
    const auto* axis = call->args[1]->as<ir::IntImm>();
    if (tensor == nullptr || axis == nullptr) return std::nullopt;
    const int rank = kernel.bindings[tensor->binding].type.rank;
    if (rank < 0) {
      // A rank not known here (`q.size(-1)` of a tensor viewed on the host, or `x.size(1)`
      // before any use states x's rank): an axis is still one axis, counted from the end
      // (`q.shape[-1]`, kept negative in the Dim) or from the start (`x.shape[1]`); an array
      // with fewer axes fails while JAX traces, when `x.size(d)` is evaluated on the host.
      if (axis->value >= 64 || axis->value < -64) return std::nullopt;  // no array has more
      return Dim::full(tensor->binding, static_cast<int>(axis->value));
    }
    if (axis->value >= rank || axis->value < -rank) return std::nullopt;
    return Dim::full(tensor->binding,
                     static_cast<int>(axis->value < 0 ? axis->value + rank : axis->value));
  }
  return std::nullopt;
}

// Why a size names no dimension, for "... is not supported yet" messages.
constexpr std::string_view kOtherSize =
    "computed from values of device code (a tile's block size, a loaded value) or other than "
    "an int (sizes are tiles, `tile.block_size`, `x.size(d)`, numbers and host ints computed "
    "from them, such as `n // 2`)";

// Whether two dimensions of the same position have the same size for certain: the same tile,
// or whole axes (two tensors' axes are compared when JAX traces the module, as broadcasting
// does), or a literal and a whole axis (checked at trace time, lower_literal_sizes.cpp).
bool same_extent(const Dim& a, const Dim& b) {
  if (a.kind == Dim::Kind::kFull && b.kind == Dim::Kind::kFull) return true;
  return dims_agree({a}, {b});
}

}  // namespace

std::optional<Dim> KernelLowering::named_size_dim(const ExprPtr& size, const SyntaxNode& node) {
  return named_size_dim(size, node.text());
}

std::optional<Dim> KernelLowering::named_size_dim(const ExprPtr& size, std::string_view spelling) {
  if (std::optional<Dim> dim = size_dim(kernel_, size)) return dim;
  // A host int computed from other sizes (`head_dim // 2`, `a.size(1) + b.size(1)`): a number
  // once JAX traces the module, so a static dimension there; not anything device code computes.
  // A registered block size (`hl.zeros([tile_m, block_n])`) is one too, which the tiles of the
  // loops that tile with it take (adopt_block_dims).
  if (size->type.kind != TypeKind::kInt || size->as<ir::IntImm>()) return std::nullopt;
  if (ir::reads_kernel_values(kernel_, size)) return std::nullopt;
  const auto* ref = size->as<ir::VarRef>();
  const auto block =
      ref ? registered_block_sizes_.find(ref->binding) : registered_block_sizes_.end();
  const std::string key = ir::print_expr(kernel_, size);
  for (size_t i = 0; i < kernel_.computed_sizes.size(); ++i) {
    if (ir::print_expr(kernel_, kernel_.computed_sizes[i].value) == key) {
      return Dim::computed(static_cast<int>(i));
    }
  }
  // Its spelling goes into the module's trace-time messages (Python string literals).
  std::string text;
  for (const char c : spelling) {
    if (c == '\n' || c == '\r') {
      text += ' ';
    } else if (c != '"' && c != '\\') {
      text += c;
    }
  }
  kernel_.computed_sizes.push_back({size, std::move(text)});
  const int index = static_cast<int>(kernel_.computed_sizes.size() - 1);
  if (block != registered_block_sizes_.end()) block_dims_[index] = block->second;
  return Dim::computed(index);
}

void KernelLowering::adopt_block_dims(ExprPtr& value, const ExprPtr& other, SourceRange range) {
  if (block_dims_.empty() || value->type.kind != TypeKind::kTileTensor ||
      other->type.kind != TypeKind::kTileTensor || value->type.tile_rank() < 0 ||
      other->type.tile_rank() < 0) {
    return;
  }
  const std::vector<Dim>& wanted = other->type.dims;
  for (size_t i = 0; i < value->type.dims.size() && i < wanted.size(); ++i) {
    // Right-aligned, as the two broadcast.
    const int axis = static_cast<int>(value->type.dims.size() - 1 - i);
    const Dim mine = value->type.dims[static_cast<size_t>(axis)];
    const Dim& theirs = wanted[wanted.size() - 1 - i];
    if (mine.kind != Dim::Kind::kTile || theirs.kind != Dim::Kind::kComputed) continue;
    const auto block = block_dims_.find(theirs.size);
    const ir::TileDim& tile = kernel_.tile_dims[static_cast<size_t>(mine.tile_dim)];
    if (block == block_dims_.end() || tile.block.kind != ir::BlockSource::Kind::kTunable ||
        tile.block.tunable != block->second) {
      continue;
    }
    // The loop's blocks are exactly the registered value (a block whose value the kernel reads
    // is kept), so only the last block's lanes past the loop's end differ: zeros there.
    ExprPtr live =
        ir::Compare::make(ir::CompareOp::kLt,
                          ir::TileAttr::make(mine.tile_dim, ir::TileAttrKind::kIndex,
                                             Type::tile_tensor({mine}, ScalarType::kInt32), range),
                          ir::TileAttr::make(mine.tile_dim, ir::TileAttrKind::kEnd,
                                             Type::scalar(TypeKind::kInt), range),
                          Type::tile_tensor({mine}, ScalarType::kBool), range);
    while (live->type.dims.size() < value->type.dims.size() - static_cast<size_t>(axis)) {
      live = make_unsqueeze(live, static_cast<int>(live->type.dims.size()), range);
    }
    ExprPtr zero = ir::Call::make(Intrinsic::kFullLike,
                                  {value, ir::IntImm::make(0, range), ir::NoneImm::make(range)},
                                  value->type, range);
    std::vector<Dim> dims = value->type.dims;
    dims[static_cast<size_t>(axis)] = theirs;
    value = ir::Call::make(Intrinsic::kWhere, {std::move(live), value, std::move(zero)},
                           Type::tile_tensor(std::move(dims), value->type.dtype), range);
  }
}

std::vector<Dim> KernelLowering::creation_dims(const std::vector<SyntaxNode>& entries) {
  std::vector<Dim> dims;
  for (const SyntaxNode& entry : entries) {
    ExprPtr value = lower_expr(entry);
    value = resolve_host_size(value);
    if (value->type.kind == TypeKind::kTile && value->type.tile_dims.size() == 1 &&
        !value->type.variadic) {
      dims.push_back(Dim::tile(value->type.tile_dims[0]));
    } else if (const std::optional<Dim> dim = named_size_dim(value, entry)) {
      // 1, `tile.block_size`, a tensor's whole axis `x.size(d)`, a number or a computed size
      dims.push_back(*dim);
    } else {
      unsupported(entry.range(), fmt::format("a shape entry {}", kOtherSize));
    }
  }
  return dims;
}

ExprPtr KernelLowering::dim_size(const Dim& dim, SourceRange range) const {
  return size_expr(kernel_, dim, range);
}

int KernelLowering::dim_argument(int rank, const SyntaxNode& node, int rank_extra) {
  ExprPtr dim = lower_expr(node);
  const auto* imm = dim->as<ir::IntImm>();
  if (!imm) {
    fail(DiagnosticKind::kTypeMismatch, node.range(), "a dimension must be an integer constant");
  }
  if (rank < 0) {
    unsupported(node.range(), "a dimension of a value whose rank is only known at trace time");
  }
  const int64_t limit = rank + rank_extra;
  if (imm->value >= limit || imm->value < -limit) {
    fail(DiagnosticKind::kRankMismatch, node.range(),
         fmt::format("dimension {} is out of range for a value with {} dimension{}", imm->value,
                     rank, rank == 1 ? "" : "s"));
  }
  return static_cast<int>(imm->value < 0 ? imm->value + limit : imm->value);
}

bool KernelLowering::bool_argument(const SyntaxNode& node, std::string_view message) {
  if (!node) return false;
  const ExprPtr flag = lower_expr(node);
  const auto* imm = flag->as<ir::BoolImm>();
  if (!imm) fail(DiagnosticKind::kTypeMismatch, node.range(), std::string(message));
  return imm->value;
}

ExprPtr KernelLowering::make_reduction(Intrinsic op, const ExprPtr& value, const SyntaxNode& dim,
                                       const SyntaxNode& keepdim, SourceRange range) {
  if (keepdim && !dim) {
    fail(DiagnosticKind::kBadArgument, keepdim.parent().range(),
         fmt::format("`{}` takes `keepdim` only together with `dim`", ir::intrinsic_name(op)));
  }
  return reduce_axes(op, value, reduced_axes(op, value, dim, range),
                     bool_argument(keepdim, "`keepdim` must be True or False"), range);
}

std::vector<int> KernelLowering::reduced_axes(Intrinsic op, const ExprPtr& value,
                                              const SyntaxNode& dim, SourceRange range) {
  if (value->type.kind != TypeKind::kTileTensor) {
    fail(DiagnosticKind::kTypeMismatch, value->range,
         fmt::format("`{}` needs a tile of values", ir::intrinsic_name(op)));
  }
  const int rank = value->type.tile_rank();
  std::vector<int> axes;
  if (!dim) {
    // `t.sum()`: every axis, as PyTorch's reduction to a 0-d tensor.
    if (op == Intrinsic::kArgmax || op == Intrinsic::kArgmin) {
      unsupported(range, fmt::format("`{}` without `dim` (an index into the flattened tile)",
                                     ir::intrinsic_name(op)));
    }
    if (rank < 0)
      unsupported(range, "a reduction of a tile whose rank is only known at trace time");
    for (int axis = 0; axis < rank; ++axis) axes.push_back(axis);
  } else if (dim.type() == "list" || dim.type() == "tuple") {
    // `t.sum([0, 1])`: several axes at once.
    if (op == Intrinsic::kArgmax || op == Intrinsic::kArgmin) {
      fail(DiagnosticKind::kTypeMismatch, dim.range(),
           fmt::format("`{}` takes one dimension, not a list", ir::intrinsic_name(op)));
    }
    for (const SyntaxNode& entry : dim.named_children()) {
      const int axis = dim_argument(rank, entry);
      if (std::find(axes.begin(), axes.end(), axis) != axes.end()) {
        fail(DiagnosticKind::kBadArgument, entry.range(),
             fmt::format("dimension {} appears twice in the reduced dimensions", axis));
      }
      axes.push_back(axis);
    }
  } else {
    axes.push_back(dim_argument(rank, dim));
  }
  return axes;
}

ExprPtr KernelLowering::reduce_axes(Intrinsic op, const ExprPtr& value, std::vector<int> axes,
                                    bool keep, SourceRange range) {
  if (op == Intrinsic::kMean && value->type.dtype && !ir::is_floating(*value->type.dtype)) {
    fail(DiagnosticKind::kTypeMismatch, range, "`mean` needs floating-point values");
  }
  // One axis at a time, the last first so that the others keep their positions: each step is
  // the single-axis reduction the strategies already mask, and for `mean` the mean of
  // equal-length means is the mean of all.
  std::sort(axes.rbegin(), axes.rend());
  for (const int axis : axes) {
    // Inside the loop that tiles with a registered block, the lanes of a value of that block's
    // dimension past the loop's end are live or not depending on the step (Helion masks them
    // in its last step only): reduce such a value after the loop.
    const Dim& dim = value->type.dims[static_cast<size_t>(axis)];
    if (dim.kind == Dim::Kind::kTilePart) {
      // The groups of a partial last block past the range's end hold whatever the block's
      // padding holds, which nothing masks here.
      const std::string spelled = dims_to_string(kernel_, {dim});  // "[tile.block_size // 2]"
      unsupported(range, fmt::format("reducing along `{}` (a tile's block in groups)",
                                     spelled.substr(1, spelled.size() - 2)));
    }
    const auto block =
        dim.kind == Dim::Kind::kComputed ? block_dims_.find(dim.size) : block_dims_.end();
    if (block != block_dims_.end() && std::find(open_tunables_.begin(), open_tunables_.end(),
                                                block->second) != open_tunables_.end()) {
      unsupported(range,
                  fmt::format("reducing along `{}` inside the loop that tiles with it (which "
                              "lanes count differs between its steps)",
                              kernel_.computed_sizes[static_cast<size_t>(dim.size)].text));
    }
  }
  ExprPtr result = value;
  for (const int axis : axes) {
    result = mask_jagged_reduction(op, result, axis, range);
    std::vector<Dim> dims = result->type.dims;
    if (keep) {
      dims[axis] = Dim::unit();
    } else {
      dims.erase(dims.begin() + axis);
    }
    Type type = Type::tile_tensor(std::move(dims), reduction_dtype(op, result->type.dtype));
    result =
        ir::Call::make(op, {result, ir::IntImm::make(axis, range), ir::BoolImm::make(keep, range)},
                       std::move(type), range);
  }
  return result;
}

ExprPtr KernelLowering::make_unsqueeze(const ExprPtr& value, int dim, SourceRange range) {
  std::vector<Dim> dims = value->type.dims;
  HELIONC_CHECK(dim >= 0 && static_cast<size_t>(dim) <= dims.size(),
                "make_unsqueeze: a new axis outside the value's rank");
  dims.insert(dims.begin() + dim, Dim::unit());
  return ir::Call::make(Intrinsic::kUnsqueeze, {value, ir::IntImm::make(dim, range)},
                        Type::tile_tensor(std::move(dims), value->type.dtype), range);
}

ExprPtr KernelLowering::make_permute(const ExprPtr& value, const std::vector<int>& order,
                                     SourceRange range) {
  std::vector<Dim> dims;
  std::vector<ExprPtr> entries;
  for (int axis : order) {
    dims.push_back(value->type.dims[axis]);
    entries.push_back(ir::IntImm::make(axis, range));
  }
  const int rank = static_cast<int>(order.size());
  return ir::Call::make(Intrinsic::kPermute,
                        {value, ir::TupleExpr::make(std::move(entries), Type::shape(rank), range)},
                        Type::tile_tensor(std::move(dims), value->type.dtype), range);
}

ExprPtr KernelLowering::lower_tile_method(const ExprPtr& receiver, std::string_view method,
                                          const CallArgs& args) {
  const SourceRange range = args.call.range();
  const std::string shown = fmt::format(".{}()", method);
  if (ExprPtr moments = lower_moments(method, receiver, args)) return moments;
  if (method == "size" && receiver->type.kind == TypeKind::kTileTensor) {
    // `v.size(d)`: the size of dimension d, which names that dimension again (a tile's
    // `block_size`, `x.size(d)`, a number), so `v.reshape(v.size(0), 4, 64)` keeps the tile.
    // `v.size()` is the tuple of them, as `v.shape` (lower_tile_attribute).
    check_arity(args, shown, 0, 1, {"dim"});
    const SyntaxNode dim = argument(args, 0, "dim");
    if (!dim) {
      ExprPtr shape = lower_tile_attribute(receiver, "shape", range);
      if (!shape || !shape->as<ir::TupleExpr>()) {
        unsupported(range, "`.size()` of a tile value whose rank is only known at trace time");
      }
      return shape;
    }
    const int axis = dim_argument(receiver->type.tile_rank(), dim);
    const Dim& sized = receiver->type.dims[static_cast<size_t>(axis)];
    if (sized.kind == Dim::Kind::kSlice) {
      unsupported(range, "`.size(d)` of a tile value along a slice of a tensor's axis");
    }
    return dim_size(sized, range);
  }
  if (auto op = reduction_function(method)) {
    check_arity(args, shown, 0, 2, {"dim", "keepdim"});
    return make_reduction(*op, receiver, argument(args, 0, "dim"), argument(args, 1, "keepdim"),
                          range);
  }
  if (method == "max" || method == "min") {
    check_arity(args, shown, 0, 2, {"dim", "keepdim"});
    const SyntaxNode dim = argument(args, 0, "dim");
    const SyntaxNode keepdim = argument(args, 1, "keepdim");
    const bool is_max = method == "max";
    // `x.max()` is the largest value; `x.max(dim)` the pair (values, indices), as in PyTorch.
    ExprPtr values =
        make_reduction(is_max ? Intrinsic::kAmax : Intrinsic::kAmin, receiver, dim, keepdim, range);
    if (!dim) return values;
    ExprPtr indices = make_reduction(is_max ? Intrinsic::kArgmax : Intrinsic::kArgmin, receiver,
                                     dim, keepdim, range);
    Type type = Type::tuple({values->type, indices->type});
    return ir::TupleExpr::make({values, indices}, std::move(type), range);
  }
  if (method == "t") {
    // PyTorch's `.t()`: the transpose of a 2-D value, a 0-D or 1-D one unchanged.
    check_arity(args, shown, 0, 0, {});
    const int rank = receiver->type.tile_rank();
    if (rank > 2 || rank < 0) {
      fail(DiagnosticKind::kRankMismatch, range,
           fmt::format("`.t()` takes a tile value of rank at most 2, not {}", rank));
    }
    return rank == 2 ? make_permute(receiver, {1, 0}, range) : receiver;
  }
  if (method == "sort" || method == "topk" || method == "argsort") {
    return make_sort(method, receiver, args, 0);
  }
  if (method == "pow") {
    // `x.pow(e)` is `x ** e`.
    check_arity(args, shown, 1, 1, {"exponent"});
    return make_binary(ir::BinaryOp::kPow, receiver, lower_expr(argument(args, 0, "exponent")),
                       range);
  }
  if (method == "clamp" || method == "clip") {
    check_arity(args, shown, 0, 2, {"min", "max"});
    const auto bound = [&](size_t position, std::string_view keyword) -> ExprPtr {
      const SyntaxNode node = argument(args, position, keyword);
      return node ? lower_expr(node) : ir::NoneImm::make(range);
    };
    ExprPtr lo = bound(0, "min");
    ExprPtr hi = bound(1, "max");
    return ir::Call::make(Intrinsic::kClamp, {receiver, lo, hi}, receiver->type, range);
  }
  if (method == "softmax" || method == "log_softmax") {
    check_arity(args, shown, 0, 1, {"dim", "dtype"});
    const SyntaxNode dim = argument(args, 0, "dim");
    if (!dim) fail(DiagnosticKind::kWrongArity, range, fmt::format("`{}` needs `dim`", shown));
    ExprPtr value = receiver;
    if (const SyntaxNode dtype = args.keyword("dtype"))
      value = make_cast(value, lower_dtype_expr(dtype), range);
    Type type = value->type;
    type.dtype = float_math_dtype(value->type);
    return ir::Call::make(
        method == "softmax" ? Intrinsic::kSoftmax : Intrinsic::kLogSoftmax,
        {value, ir::IntImm::make(dim_argument(value->type.tile_rank(), dim), dim.range())},
        std::move(type), range);
  }
  if (method == "unsqueeze") {
    check_arity(args, shown, 1, 1, {"dim"});
    return make_unsqueeze(receiver, dim_argument(receiver->type.tile_rank(), args.positional[0], 1),
                          range);
  }
  if (method == "squeeze") {
    check_arity(args, shown, 0, 1, {"dim"});
    const SyntaxNode dim_node = argument(args, 0, "dim");
    if (!dim_node) {
      // Every unit dimension, squeezed from the last so the axes stay valid.
      ExprPtr value = receiver;
      for (int dim = receiver->type.tile_rank() - 1; dim >= 0; --dim) {
        if (receiver->type.dims[dim].kind != Dim::Kind::kUnit) continue;
        std::vector<Dim> dims = value->type.dims;
        dims.erase(dims.begin() + dim);
        value = ir::Call::make(Intrinsic::kSqueeze, {value, ir::IntImm::make(dim, range)},
                               Type::tile_tensor(std::move(dims), receiver->type.dtype), range);
      }
      return value;
    }
    const int dim = dim_argument(receiver->type.tile_rank(), dim_node);
    std::vector<Dim> dims = receiver->type.dims;
    // torch leaves a dimension that is not 1 alone: a literal, and a tile's block,
    // which the kernel is written for any size of (Helion's block sizes are symbolic, and
    // PyTorch squeezes a symbolic size only where it is known to be 1), so a block of 1 keeps
    // its dimension here too and the value's shape is one for every config.
    if (dims[dim].kind == Dim::Kind::kTile || dims[dim].kind == Dim::Kind::kLiteral) {
      return receiver;  // a literal is above 1 (a written 1 is a unit dimension)
    }
    if (dims[dim].kind != Dim::Kind::kUnit) {
      // A whole axis or a computed size may be 1 or not: only the call's shapes tell.
      fail(DiagnosticKind::kShapeMismatch, dim_node.range(),
           fmt::format("`squeeze({})` of a tile of shape {}: that dimension may be 1 or not "
                       "(only the call's shapes tell), so the result's rank is unknown; index "
                       "it with 0 instead",
                       dim, dims_to_string(kernel_, dims)));
    }
    dims.erase(dims.begin() + dim);
    return ir::Call::make(Intrinsic::kSqueeze, {receiver, ir::IntImm::make(dim, range)},
                          Type::tile_tensor(std::move(dims), receiver->type.dtype), range);
  }
  if (method == "transpose") {
    check_arity(args, shown, 2, 2, {});
    const int a = dim_argument(receiver->type.tile_rank(), args.positional[0]);
    const int b = dim_argument(receiver->type.tile_rank(), args.positional[1]);
    std::vector<int> order(receiver->type.dims.size());
    std::iota(order.begin(), order.end(), 0);
    std::swap(order[a], order[b]);
    return make_permute(receiver, order, range);
  }
  if (method == "permute") {
    std::vector<SyntaxNode> dims = args.positional;
    if (dims.size() == 1 && (dims[0].type() == "tuple" || dims[0].type() == "list")) {
      dims = dims[0].named_children();
    }
    const int rank = receiver->type.tile_rank();
    if (static_cast<int>(dims.size()) != rank) {
      fail(DiagnosticKind::kRankMismatch, range,
           fmt::format("`permute` needs {} dimensions for a tile of rank {}", rank, rank));
    }
    std::vector<int> order;
    for (const SyntaxNode& dim : dims)
      order.push_back(dim_argument(receiver->type.tile_rank(), dim));
    std::vector<int> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
      fail(DiagnosticKind::kBadArgument, range, "`permute` needs each dimension exactly once");
    }
    return make_permute(receiver, order, range);
  }
  if (method == "expand_as" || method == "expand") {
    std::vector<Dim> target;
    if (method == "expand_as") {
      check_arity(args, shown, 1, 1, {});
      ExprPtr other = lower_expr(args.positional[0]);
      if (other->type.kind != TypeKind::kTileTensor) {
        fail(DiagnosticKind::kTypeMismatch, other->range, "`expand_as` takes a tile value");
      }
      target = other->type.dims;
    } else {
      // Entries are sizes that name a dimension (size_dim: tiles, block sizes, tensor sizes,
      // numbers) or -1 (keep the dimension), matched right-aligned as in torch.
      std::vector<SyntaxNode> sizes = args.positional;
      if (sizes.size() == 1 && (sizes[0].type() == "list" || sizes[0].type() == "tuple")) {
        sizes = sizes[0].named_children();
      }
      const std::vector<Dim>& dims = receiver->type.dims;
      if (sizes.size() < dims.size()) {
        fail(DiagnosticKind::kRankMismatch, range, "`expand` cannot drop dimensions");
      }
      for (size_t i = 0; i < sizes.size(); ++i) {
        ExprPtr size = resolve_host_size(lower_expr(sizes[i]));
        const auto* imm = size->as<ir::IntImm>();
        const size_t offset = sizes.size() - dims.size();
        if (imm && imm->value == -1 && i >= offset) {
          target.push_back(dims[i - offset]);
        } else if (const std::optional<Dim> dim = named_size_dim(size, sizes[i])) {
          target.push_back(*dim);
        } else {
          unsupported(sizes[i].range(), fmt::format("an `expand` size {}", kOtherSize));
        }
      }
    }
    const auto merged = unify_dims(receiver->type.dims, target, range);
    if (!merged || !dims_agree(*merged, target)) {
      fail(DiagnosticKind::kShapeMismatch, range,
           fmt::format("a tile of shape {} cannot be expanded to {}",
                       dims_to_string(kernel_, receiver->type.dims),
                       dims_to_string(kernel_, target)));
    }
    return ir::Call::make(Intrinsic::kBroadcastTo, {receiver},
                          Type::tile_tensor(std::move(target), receiver->type.dtype), range);
  }
  if (method == "reshape" || method == "view") {
    // Sizes are tiles (their block sizes), tensor sizes, 1 and at most one -1. helionc types
    // tile shapes by tiles and whole axes, so a reshape may add or remove unit dimensions and
    // must keep the others, in order; anything else would need a product of sizes.
    if (receiver->type.tile_rank() < 0) {
      unsupported(range,
                  fmt::format("`{}` of a tile whose rank is only known at trace time", shown));
    }
    std::vector<SyntaxNode> sizes = args.positional;
    check_arity(args, shown, 1, 8, {});
    if (sizes.size() == 1 && (sizes[0].type() == "list" || sizes[0].type() == "tuple")) {
      sizes = sizes[0].named_children();
    }
    std::vector<std::optional<Dim>> target;  // nullopt: the -1
    std::vector<std::string> spelled;        // for messages
    int inferred = -1;
    for (const SyntaxNode& node : sizes) {
      // A host int bound to a size (`_, d = x.size()`) is that size.
      ExprPtr size = resolve_host_size(lower_expr(node));
      if (size->type.kind == TypeKind::kDtype) {
        unsupported(node.range(), fmt::format("`{}` to a dtype (a bitcast) on a tile", shown));
      }
      spelled.emplace_back(node.text());
      if (const auto* imm = size->as<ir::IntImm>(); imm && imm->value == -1) {
        if (inferred >= 0) {
          fail(DiagnosticKind::kBadArgument, node.range(), "only one size can be -1");
        }
        inferred = static_cast<int>(target.size());
        target.emplace_back();
        continue;
      }
      if (size->type.kind != TypeKind::kInt && size->type.kind != TypeKind::kTile) {
        fail(DiagnosticKind::kTypeMismatch, node.range(),
             fmt::format("a size must be an integer or a tile, not `{}`",
                         ir::type_to_string(size->type)));
      }
      // A part of a tile's block (`tile.block_size // 2`) views the block in groups.
      std::optional<Dim> dim = tile_part_size(size, node.range());
      if (!dim) dim = named_size_dim(size, node);
      if (!dim) unsupported(node.range(), fmt::format("a `{}` size {}", shown, kOtherSize));
      target.push_back(dim);
    }
    const std::string from = dims_to_string(kernel_, receiver->type.dims);
    const std::string to = fmt::format("[{}]", fmt::join(spelled, ", "));
    // A tile's block split into groups, or groups merged back (lower_tile_groups.cpp).
    if (ExprPtr grouped = group_tile_reshape(receiver, target, shown, range)) return grouped;
    // Tiles merged into another tile's dimension become tiles of one row (unit dimensions).
    ExprPtr value = receiver;
    if (ExprPtr merged = merge_unit_tiles(receiver, target, shown, to, range)) value = merged;
    const std::vector<std::optional<Dim>> written = target;  // before the -1 is resolved
    const std::vector<Dim> source = without_units(value->type.dims);
    std::vector<Dim> known;
    size_t known_before_inferred = 0;
    for (size_t i = 0; i < target.size(); ++i) {
      if (!target[i] || target[i]->kind == Dim::Kind::kUnit) continue;
      known.push_back(*target[i]);
      if (inferred >= 0 && static_cast<int>(i) < inferred) ++known_before_inferred;
    }
    if (inferred >= 0) {
      // -1 is what the other sizes leave: nothing (a unit dimension) or one of the tile's.
      if (known.size() == source.size()) {
        target[inferred] = Dim::unit();
      } else if (known.size() + 1 == source.size()) {
        target[inferred] = source[known_before_inferred];
        known.insert(known.begin() + static_cast<std::ptrdiff_t>(known_before_inferred),
                     source[known_before_inferred]);
      }
    }
    const bool same_count = known.size() == source.size() && (inferred < 0 || target[inferred]);
    size_t differs = 0;  // the first kept dimension whose size may change
    while (same_count && differs < known.size() && same_extent(known[differs], source[differs])) {
      ++differs;
    }
    if (!same_count || differs < known.size()) {
      // Not a reshape that only adds or removes unit dimensions: whole axes and numbers
      // regrouped between the tiles, or an error.
      if (ExprPtr regrouped = regroup_reshape(value, written, shown, to, range)) {
        return regrouped;
      }
      if (!same_count) {
        fail(DiagnosticKind::kUnsupported, range,
             fmt::format("`{}` of a tile of shape {} to {} merges or splits dimensions, which "
                         "is not supported yet (only unit dimensions can be added or removed, "
                         "and whole axes and numbers regrouped between the tiles)",
                         shown, from, to));
      }
      fail(DiagnosticKind::kShapeMismatch, range,
           fmt::format(
               "cannot prove that `{}` of a tile of shape {} to {} keeps its element "
               "count: {} and {} may differ in size{}",
               shown, from, to, dims_to_string(kernel_, {source[differs]}),
               dims_to_string(kernel_, {known[differs]}),
               known[differs].kind == Dim::Kind::kTile && source[differs].kind == Dim::Kind::kTile
                   ? " (to reorder dimensions use `.permute` or `.transpose`)"
                   : ""));
    }
    for (size_t i = 0; i < known.size(); ++i) {
      unify_dims({known[i]}, {source[i]}, range);  // a literal's check
    }
    std::vector<Dim> dims;
    std::vector<ExprPtr> entries;
    for (const std::optional<Dim>& dim : target) {
      dims.push_back(*dim);
      entries.push_back(size_expr(kernel_, *dim, range));
    }
    if (dims == value->type.dims) return value;
    const int rank = static_cast<int>(entries.size());
    return ir::Call::make(
        Intrinsic::kReshape,
        {value, ir::TupleExpr::make(std::move(entries), Type::shape(rank), range)},
        Type::tile_tensor(std::move(dims), value->type.dtype), range);
  }
  return nullptr;
}

ExprPtr KernelLowering::lower_tile_function(const std::string& name, const CallArgs& args) {
  const SourceRange range = args.call.range();
  const std::string shown(args.call.child_by_field("function").text());
  std::string_view short_name = name;
  for (std::string_view prefix : {"torch.nn.functional.", "torch.special.", "torch."}) {
    if (short_name.substr(0, prefix.size()) == prefix) {
      short_name.remove_prefix(prefix.size());
      break;
    }
  }
  const bool from_torch = name.rfind("torch.", 0) == 0;
  const bool functional = name.rfind("torch.nn.functional.", 0) == 0;
  if (from_torch && !functional &&
      (reduction_function(short_name) || short_name == "max" || short_name == "min" ||
       short_name == "unsqueeze" || short_name == "squeeze" || short_name == "transpose" ||
       short_name == "permute" || short_name == "clamp" || short_name == "clip" ||
       short_name == "var" || short_name == "std" || short_name == "var_mean" ||
       short_name == "std_mean")) {
    // torch.sum(x, dim) is x.sum(dim): hand the rest of the arguments to the method.
    if (args.positional.empty()) check_arity(args, shown, 1, 3, {});
    CallArgs rest = args;
    rest.positional.erase(rest.positional.begin());
    return lower_value_method(lower_expr(args.positional[0]), short_name, rest);
  }
  if (from_torch && !functional &&
      (short_name == "reshape" || short_name == "flatten" || short_name == "squeeze")) {
    if (args.positional.empty()) check_arity(args, shown, 1, 3, {});
    CallArgs rest = args;
    rest.positional.erase(rest.positional.begin());
    return lower_value_method(lower_expr(args.positional[0]), short_name, rest);
  }
  if ((functional || name == "torch.softmax" || name == "torch.log_softmax") &&
      (short_name == "softmax" || short_name == "log_softmax")) {
    if (args.positional.empty()) check_arity(args, shown, 1, 2, {"dim", "dtype"});
    CallArgs rest = args;
    rest.positional.erase(rest.positional.begin());
    return lower_tile_method(lower_expr(args.positional[0]), short_name, rest);
  }
  if (name == "torch.stack") return make_stack(args, shown);
  if (name == "torch.cat" || name == "torch.concat" || name == "torch.concatenate") {
    return make_concat(args, shown);
  }
  if (name == "torch.nn.functional.pad") return make_pad(args, shown);
  if (name == "torch.sort" || name == "torch.topk" || name == "torch.argsort") {
    const SyntaxNode input = argument(args, 0, "input");
    if (!input) check_arity(args, shown, 1, 5, {});
    return make_sort(short_name, lower_expr(input), args, 1);
  }
  if (name == "torch.gather") return make_take_along(args, shown);
  if (name == "helion.language.arange" || (in_device() && name == "torch.arange")) {
    return make_arange(args, shown);
  }
  if (name == "helion.language.split") return make_split(args, shown);
  if (name == "helion.language.join") {
    // hl.join(a, b): the two along a new last axis of 2 (Triton's `tl.join`), torch.stack's
    // `dim=-1`.
    if (!in_device()) unsupported(range, fmt::format("`{}` in host code", shown));
    check_arity(args, shown, 2, 2, {});
    std::vector<ExprPtr> halves;
    for (const SyntaxNode& node : args.positional) halves.push_back(lower_expr(node));
    for (const ExprPtr& half : halves) {
      if (half->type.kind != TypeKind::kTileTensor || half->type.tile_rank() < 0) {
        fail(DiagnosticKind::kTypeMismatch, half->range,
             fmt::format("`{}` takes tile values of a known rank", shown));
      }
    }
    if (halves[0]->type.dims != halves[1]->type.dims) {
      fail(DiagnosticKind::kShapeMismatch, range,
           fmt::format("`{}` takes values of one shape: {} and {} differ", shown,
                       dims_to_string(kernel_, halves[0]->type.dims),
                       dims_to_string(kernel_, halves[1]->type.dims)));
    }
    const Type type = combine_types(*halves[0], *halves[1], ArithKind::kArithmetic, range);
    std::vector<Dim> dims = halves[0]->type.dims;
    dims.push_back(Dim::literal(2));
    const int axis = static_cast<int>(dims.size()) - 1;
    std::vector<Type> element_types{halves[0]->type, halves[1]->type};
    ExprPtr pair =
        ir::TupleExpr::make(std::move(halves), Type::tuple(std::move(element_types)), range);
    return ir::Call::make(Intrinsic::kStack, {std::move(pair), ir::IntImm::make(axis, range)},
                          Type::tile_tensor(std::move(dims), type.dtype), range);
  }
  if (name == "helion.language.full" || name == "helion.language.zeros") {
    return make_filled_tile(args, shown, name == "helion.language.full" ? -1 : 0,
                            /*torch_form=*/false);
  }
  // In device code PyTorch's constructors make tiles as hl.zeros/hl.full do (`device=` is the
  // kernel's own); on the host they are allocations (lower_allocations.cpp).
  if (in_device() && (name == "torch.zeros" || name == "torch.ones" || name == "torch.full")) {
    return make_filled_tile(args, shown,
                            name == "torch.full"   ? -1
                            : name == "torch.ones" ? 1
                                                   : 0,
                            /*torch_form=*/true);
  }
  return nullptr;
}

ExprPtr KernelLowering::make_filled_tile(const CallArgs& args, std::string_view shown, int fill,
                                         bool torch_form, ExprPtr default_dtype) {
  // hl.full(shape, value, dtype=float32), hl.zeros(shape, dtype=float32); torch.zeros(shape,
  // dtype=, device=) and torch.full(shape, value, dtype=, device=) take dtype only by keyword.
  // `fill` is 0 or 1 for zeros/ones, -1 when the value is the second argument.
  const SourceRange range = args.call.range();
  const bool full = fill < 0;
  const size_t dtype_position = full ? 2 : 1;
  // torch.zeros(m, n) takes its sizes as separate arguments too.
  const bool separate_sizes = torch_form && !full && !args.positional.empty() &&
                              args.positional[0].type() != "list" &&
                              args.positional[0].type() != "tuple";
  if (separate_sizes) {
    check_arity(args, shown, 1, args.positional.size(), {"dtype", "device"});
  } else if (torch_form) {
    check_arity(args, shown, dtype_position, dtype_position, {"dtype", "device"});
  } else {
    check_arity(args, shown, dtype_position, dtype_position + 1, {"dtype", "device"});
  }
  const SyntaxNode shape_node = args.positional[0];
  if (!separate_sizes && shape_node.type() != "list" && shape_node.type() != "tuple") {
    fail(DiagnosticKind::kTypeMismatch, shape_node.range(),
         fmt::format("`{}` takes a list of tiles (and 1s) as its shape", shown));
  }
  const std::vector<SyntaxNode> entries =
      separate_sizes ? args.positional : shape_node.named_children();
  std::vector<Dim> dims = creation_dims(entries);
  ExprPtr fill_value = full ? lower_expr(args.positional[1]) : ir::IntImm::make(fill, range);
  if (!fill_value->type.is_scalar()) {
    fail(DiagnosticKind::kTypeMismatch, fill_value->range, "the fill value must be a scalar");
  }
  // float32 unless given: Helion's convention for hl.full/hl.zeros, PyTorch's default dtype.
  ExprPtr dtype =
      default_dtype ? std::move(default_dtype) : ir::DtypeImm::make(ScalarType::kFloat32, range);
  const SyntaxNode dtype_node =
      separate_sizes ? args.keyword("dtype") : argument(args, dtype_position, "dtype");
  if (dtype_node) dtype = lower_dtype_expr(dtype_node);
  const auto* imm = dtype->as<ir::DtypeImm>();
  Type type = Type::tile_tensor(std::move(dims), imm ? std::optional(imm->dtype) : std::nullopt);
  return ir::Call::make(Intrinsic::kFull, {fill_value, dtype}, std::move(type), range);
}

ExprPtr KernelLowering::resolve_host_size(ExprPtr value) const {
  // A host int bound to a size (`_, d = y.size()`, `d = hl.specialize(y.size(1))`).
  // A device int bound to a tile's block size (`block_t = tile_t.block_size`, `block_t, _ =
  // acc.size()`) is that size too.
  for (const ir::VarRef* ref = value->as<ir::VarRef>(); ref; ref = value->as<ir::VarRef>()) {
    auto size = host_sizes_.find(ref->binding);
    if (size != host_sizes_.end()) {
      value = size->second;
      continue;
    }
    auto device = device_ints_.find(ref->binding);
    const auto* attr = device != device_ints_.end() ? device->second->as<ir::TileAttr>() : nullptr;
    if (!attr || attr->attr != ir::TileAttrKind::kBlockSize) break;
    value = device->second;
  }
  return value;
}

ExprPtr KernelLowering::lower_tile_attribute(const ExprPtr& base, std::string_view attr,
                                             SourceRange range) {
  const Type& type = base->type;
  if (type.kind == TypeKind::kTileTensor && attr == "shape" && type.tile_rank() >= 0) {
    // A tile value's shape: the size of each dimension as the kernel names it
    // (`tile.block_size`, `x.size(d)`, a number, 1), so `v.shape[1]` is a size too.
    std::vector<ExprPtr> sizes;
    for (const Dim& dim : type.dims) {
      if (dim.kind == Dim::Kind::kSlice) {
        unsupported(range, "the shape of a tile value holding a slice of a tensor axis");
      }
      sizes.push_back(size_expr(kernel_, dim, range));
    }
    return ir::TupleExpr::make(std::move(sizes), Type::shape(type.tile_rank()), range);
  }
  if (type.kind == TypeKind::kTileTensor && attr == "T") {
    const int rank = type.tile_rank();
    if (rank != 2) {
      fail(DiagnosticKind::kRankMismatch, range,
           fmt::format("`.T` needs a tile of rank 2, not {}", rank));
    }
    return make_permute(base, {1, 0}, range);
  }
  if (type.kind != TypeKind::kTile) return nullptr;
  if (type.tile_dims.size() != 1 || type.variadic) {
    unsupported(range, "an attribute of a multi-dimensional tile");
  }
  const int dim = type.tile_dims[0];
  static constexpr std::pair<std::string_view, ir::TileAttrKind> kAttrs[] = {
      {"index", ir::TileAttrKind::kIndex}, {"begin", ir::TileAttrKind::kBegin},
      {"end", ir::TileAttrKind::kEnd},     {"block_size", ir::TileAttrKind::kBlockSize},
      {"id", ir::TileAttrKind::kId},       {"count", ir::TileAttrKind::kCount},
  };
  for (const auto& [name, kind] : kAttrs) {
    if (name != attr) continue;
    Type result = kind == ir::TileAttrKind::kIndex
                      ? Type::tile_tensor({Dim::tile(dim)}, ScalarType::kInt32)
                      : Type::scalar(TypeKind::kInt);
    return ir::TileAttr::make(dim, kind, std::move(result), range);
  }
  fail(DiagnosticKind::kTypeMismatch, range,
       fmt::format("a tile has no attribute `{}`; it has `index`, `begin`, `end`, "
                   "`block_size`, `id` and `count`",
                   attr));
}

ExprPtr KernelLowering::make_stack(const CallArgs& args, std::string_view shown) {
  // torch.stack([a, b, ...], dim): tile values of one shape along a new axis of their count
  // (a literal size, or a unit axis for one value), as jnp.stack.
  const SourceRange range = args.call.range();
  if (!in_device()) unsupported(range, fmt::format("`{}` in host code", shown));
  check_arity(args, shown, 1, 2, {"tensors", "dim"});
  std::vector<ExprPtr> values = written_out_values(args, shown);
  Type type = values.front()->type;
  for (const ExprPtr& value : values) {
    if (value->type.kind != TypeKind::kTileTensor || value->type.tile_rank() < 0) {
      fail(DiagnosticKind::kTypeMismatch, value->range,
           fmt::format("`{}` takes tile values of a known rank", shown));
    }
    if (value->type.dims != values.front()->type.dims) {
      fail(DiagnosticKind::kShapeMismatch, value->range,
           fmt::format("`{}` takes values of one shape: {} and {} differ", shown,
                       dims_to_string(kernel_, values.front()->type.dims),
                       dims_to_string(kernel_, value->type.dims)));
    }
    type = combine_types(*values.front(), *value, ArithKind::kArithmetic, range);
  }
  const int rank = values.front()->type.tile_rank();
  const SyntaxNode dim_node = argument(args, 1, "dim");
  const int axis = dim_node ? dim_argument(rank, dim_node, 1) : 0;
  std::vector<Dim> dims = values.front()->type.dims;
  const int64_t count = static_cast<int64_t>(values.size());
  dims.insert(dims.begin() + axis, count == 1 ? Dim::unit() : Dim::literal(count));
  std::vector<Type> element_types;
  for (const ExprPtr& value : values) element_types.push_back(value->type);
  ExprPtr stacked = ir::TupleExpr::make(std::move(values), Type::tuple(std::move(element_types)),
                                        argument(args, 0, "tensors").range());
  return ir::Call::make(Intrinsic::kStack, {std::move(stacked), ir::IntImm::make(axis, range)},
                        Type::tile_tensor(std::move(dims), type.dtype), range);
}

ExprPtr KernelLowering::make_split(const CallArgs& args, std::string_view shown) {
  // hl.split(x): the two halves of a last axis of 2 (Triton's `tl.split`), `x[..., 0]` and
  // `x[..., 1]`, as windows of one element with that axis squeezed away.
  const SourceRange range = args.call.range();
  if (!in_device()) unsupported(range, fmt::format("`{}` in host code", shown));
  check_arity(args, shown, 1, 1, {});
  const ExprPtr value = lower_expr(args.positional[0]);
  const int rank = value->type.kind == TypeKind::kTileTensor ? value->type.tile_rank() : -1;
  if (rank < 1) {
    fail(DiagnosticKind::kTypeMismatch, value->range,
         fmt::format("`{}` takes a tile value of a known rank", shown));
  }
  const int axis = rank - 1;
  const Dim last = value->type.dims.back();
  if (last.kind != Dim::Kind::kFull && last.kind != Dim::Kind::kComputed &&
      !(last.kind == Dim::Kind::kLiteral && last.extent == 2)) {
    fail(DiagnosticKind::kShapeMismatch, range,
         fmt::format("`{}` splits a last dimension of size 2, not one of shape {}", shown,
                     dims_to_string(kernel_, {last})));
  }
  // An axis or a computed size must be 2 (a trace-time check); the value is then typed with a
  // last axis of 2, so that the windows are inside it.
  ExprPtr pair = value;
  if (last.kind != Dim::Kind::kLiteral) {
    unify_dims({last}, {Dim::literal(2)}, range);
    std::vector<Dim> dims = value->type.dims;
    dims.back() = Dim::literal(2);
    std::vector<ExprPtr> entries;
    for (const Dim& dim : dims) entries.push_back(dim_size(dim, range));
    pair =
        ir::Call::make(Intrinsic::kReshape,
                       {value, ir::TupleExpr::make(std::move(entries), Type::shape(rank), range)},
                       Type::tile_tensor(std::move(dims), value->type.dtype), range);
  }
  std::vector<ExprPtr> halves;
  std::vector<Type> element_types;
  for (int64_t half = 0; half < 2; ++half) {
    Window window;
    window.start = ir::IntImm::make(half, range);
    window.length = ir::IntImm::make(1, range);
    window.result = Dim::unit();
    window.stop_literal = half + 1;
    window.scalar = true;
    ExprPtr picked = make_window(pair, axis, window, range);
    std::vector<Dim> dims = pair->type.dims;
    dims.pop_back();
    picked = ir::Call::make(Intrinsic::kSqueeze, {picked, ir::IntImm::make(axis, range)},
                            Type::tile_tensor(std::move(dims), value->type.dtype), range);
    element_types.push_back(picked->type);
    halves.push_back(std::move(picked));
  }
  return ir::TupleExpr::make(std::move(halves), Type::tuple(std::move(element_types)), range);
}

ExprPtr KernelLowering::make_take_along(const CallArgs& args, std::string_view shown) {
  // torch.gather(value, dim, indices) of tile values: the indices are positions along `dim`
  // of the whole tensor axis the value holds there (`x[rows, :]`), so that axis must be whole
  // in the value; along the other axes the two have one shape, which is the result's.
  const SourceRange range = args.call.range();
  if (!in_device()) unsupported(range, fmt::format("`{}` in host code", shown));
  check_arity(args, shown, 3, 3, {"input", "dim", "index", "sparse_grad"});
  const ExprPtr value = lower_expr(argument(args, 0, "input"));
  const ExprPtr indices = lower_expr(argument(args, 2, "index"));
  for (const ExprPtr& operand : {value, indices}) {
    if (operand->type.kind != TypeKind::kTileTensor || operand->type.tile_rank() < 0) {
      fail(DiagnosticKind::kTypeMismatch, operand->range,
           fmt::format("`{}` takes tile values of a known rank", shown));
    }
  }
  if (indices->type.dtype && !ir::is_integral(*indices->type.dtype)) {
    fail(DiagnosticKind::kTypeMismatch, indices->range,
         fmt::format("`{}` takes integer indices, not {}", shown,
                     ir::dtype_name(*indices->type.dtype)));
  }
  const int rank = value->type.tile_rank();
  if (indices->type.tile_rank() != rank) {
    fail(DiagnosticKind::kRankMismatch, indices->range,
         fmt::format("`{}` takes indices of the value's rank ({})", shown, rank));
  }
  const int axis = dim_argument(rank, argument(args, 1, "dim"));
  const Dim& gathered = value->type.dims[static_cast<size_t>(axis)];
  if (gathered.kind != Dim::Kind::kFull && gathered.kind != Dim::Kind::kLiteral) {
    fail(DiagnosticKind::kUnsupported, value->range,
         fmt::format("`{}` along dimension {} of a value that does not hold that whole tensor "
                     "axis ({}) is not supported yet: the indices are positions along the whole "
                     "axis; index it with `:`",
                     shown, axis, dims_to_string(kernel_, value->type.dims)));
  }
  for (int d = 0; d < rank; ++d) {
    if (d != axis &&
        value->type.dims[static_cast<size_t>(d)] != indices->type.dims[static_cast<size_t>(d)]) {
      fail(DiagnosticKind::kShapeMismatch, range,
           fmt::format("`{}` takes a value and indices of one shape along the other dimensions: "
                       "{} and {} differ in dimension {}",
                       shown, dims_to_string(kernel_, value->type.dims),
                       dims_to_string(kernel_, indices->type.dims), d));
    }
  }
  return ir::Call::make(Intrinsic::kTakeAlong, {value, indices, ir::IntImm::make(axis, range)},
                        Type::tile_tensor(indices->type.dims, value->type.dtype), range);
}

}  // namespace helionc::frontend
