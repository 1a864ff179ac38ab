// Whole-tensor operations in host code: views of inputs before a launch and of outputs after
// it (reshape/view/flatten/transpose/permute/unsqueeze/squeeze/contiguous), host reductions
// (`losses.mean()`, `partial.sum(0)`), casts. They become jnp code around the pallas_calls.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <numeric>

#include "frontend/function_table.h"
#include "frontend/kernel_lowering.h"
#include "ir/visitor.h"

namespace helionc::frontend {

using ir::ExprPtr;
using ir::Intrinsic;
using ir::Type;
using ir::TypeKind;

namespace {

// On a whole tensor, `max()`/`min()` without a dimension are the plain reductions.
std::optional<Intrinsic> host_reduction(std::string_view name) {
  if (name == "max") return Intrinsic::kAmax;
  if (name == "min") return Intrinsic::kAmin;
  return reduction_function(name);
}

}  // namespace

ExprPtr KernelLowering::lower_value_method(const ExprPtr& receiver, std::string_view method,
                                           const CallArgs& args) {
  ExprPtr result = receiver->type.kind == TypeKind::kTensor
                       ? lower_host_method(receiver, method, args)
                       : lower_tile_method(receiver, method, args);
  if (!result) unsupported(args.call.range(), fmt::format("`{}` here", method));
  return result;
}

ExprPtr KernelLowering::make_host_view(Intrinsic op, const ExprPtr& tensor, ExprPtr argument,
                                       int rank, SourceRange range) {
  return ir::Call::make(op, {tensor, std::move(argument)}, Type::tensor(rank, tensor->type.dtype),
                        range);
}

ExprPtr KernelLowering::lower_host_method(const ExprPtr& receiver, std::string_view method,
                                          const CallArgs& args) {
  const SourceRange range = args.call.range();
  const std::string shown = fmt::format(".{}()", method);
  const int rank = receiver->type.rank;
  const auto need_rank = [&] {
    if (rank < 0) {
      unsupported(range,
                  fmt::format("`{}` on a tensor whose rank is only known at trace time", shown));
    }
  };
  const auto dim_of = [&](const SyntaxNode& node, int extra) {
    need_rank();
    return dim_argument(rank, node, extra);
  };
  const auto permute = [&](const std::vector<int>& order) {
    std::vector<ExprPtr> entries;
    for (int axis : order) entries.push_back(ir::IntImm::make(axis, range));
    const int n = static_cast<int>(entries.size());
    return make_host_view(Intrinsic::kPermute, receiver,
                          ir::TupleExpr::make(std::move(entries), Type::shape(n), range), n, range);
  };

  if (method == "contiguous") {
    check_arity(args, shown, 0, 0, {"memory_format"});
    return receiver;
  }
  if (method == "reshape" || method == "view") {
    std::vector<SyntaxNode> sizes = args.positional;
    ExprPtr shape;
    if (args.splat) {
      // `out.view(*x.size(), n)`: the sizes as the list `[*x.size(), n]` would hold them.
      shape = lower_sequence(args.call.child_by_field("arguments"));
      if (shape->type.kind != TypeKind::kShape) {
        fail(DiagnosticKind::kTypeMismatch, args.splat.range(),
             fmt::format("`{}` takes sizes, not `{}`", shown, ir::type_to_string(shape->type)));
      }
    } else if (check_arity(args, shown, 1, 8, {}); sizes.size() == 1) {
      ExprPtr only = lower_expr(sizes[0]);
      if (only->type.kind == TypeKind::kShape) shape = only;
      if (only->type.kind == TypeKind::kInt)
        shape = ir::TupleExpr::make({only}, Type::shape(1), range);
      if (!shape) {
        fail(DiagnosticKind::kTypeMismatch, sizes[0].range(),
             fmt::format("`{}` takes sizes, not `{}`", shown, ir::type_to_string(only->type)));
      }
    } else {
      std::vector<ExprPtr> entries;
      for (const SyntaxNode& size : sizes) {
        entries.push_back(lower_expr(size));
        if (entries.back()->type.kind != TypeKind::kInt) {
          fail(DiagnosticKind::kTypeMismatch, size.range(), "a size must be an integer");
        }
      }
      const int n = static_cast<int>(entries.size());
      shape = ir::TupleExpr::make(std::move(entries), Type::shape(n), range);
    }
    return make_host_view(Intrinsic::kReshape, receiver, shape, shape->type.rank, range);
  }
  if (method == "view_as" || method == "reshape_as") {
    check_arity(args, shown, 1, 1, {});
    ExprPtr other = lower_expr(args.positional[0]);
    if (other->type.kind != TypeKind::kTensor) {
      fail(DiagnosticKind::kTypeMismatch, args.positional[0].range(),
           fmt::format("`{}` takes a tensor, not `{}`", shown, ir::type_to_string(other->type)));
    }
    const int other_rank = other->type.rank_known() ? other->type.rank : -1;
    ExprPtr shape =
        ir::Call::make(Intrinsic::kShapeOf, {other}, Type::shape(other_rank), other->range);
    return make_host_view(Intrinsic::kReshape, receiver, std::move(shape), other_rank, range);
  }
  if (method == "flatten") {
    check_arity(args, shown, 0, 2, {"start_dim", "end_dim"});
    need_rank();
    const SyntaxNode start_node = argument(args, 0, "start_dim");
    const SyntaxNode end_node = argument(args, 1, "end_dim");
    const int start = start_node ? dim_of(start_node, 0) : 0;
    const int end = end_node ? dim_of(end_node, 0) : rank - 1;
    if (rank == 0)
      return make_host_view(
          Intrinsic::kReshape, receiver,
          ir::TupleExpr::make({ir::IntImm::make(1, range)}, Type::shape(1), range), 1, range);
    std::vector<ExprPtr> entries;
    for (int axis = 0; axis < rank; ++axis) {
      if (axis > start && axis <= end) continue;
      entries.push_back(axis == start ? ir::IntImm::make(-1, range)
                                      : ir::Call::make(Intrinsic::kSize,
                                                       {receiver, ir::IntImm::make(axis, range)},
                                                       Type::scalar(TypeKind::kInt), range));
    }
    const int n = static_cast<int>(entries.size());
    return make_host_view(Intrinsic::kReshape, receiver,
                          ir::TupleExpr::make(std::move(entries), Type::shape(n), range), n, range);
  }
  if (method == "unsqueeze") {
    check_arity(args, shown, 1, 1, {"dim"});
    const int dim = dim_of(args.positional[0], 1);
    return make_host_view(Intrinsic::kUnsqueeze, receiver, ir::IntImm::make(dim, range), rank + 1,
                          range);
  }
  if (method == "squeeze") {
    check_arity(args, shown, 1, 1, {"dim"});
    const int dim = dim_of(args.positional[0], 0);
    return make_host_view(Intrinsic::kSqueeze, receiver, ir::IntImm::make(dim, range), rank - 1,
                          range);
  }
  if (method == "transpose" && rank < 0) {
    // The rank is known only at trace time: jnp.swapaxes needs none.
    check_arity(args, shown, 2, 2, {});
    std::vector<ExprPtr> axes;
    for (const SyntaxNode& node : args.positional) {
      axes.push_back(lower_expr(node));
      const auto* imm = axes.back()->as<ir::IntImm>();
      if (!imm || imm->value < 0) {
        unsupported(node.range(),
                    "a negative or computed dimension of a tensor whose rank is only "
                    "known at trace time");
      }
    }
    return ir::Call::make(Intrinsic::kSwapAxes, {receiver, axes[0], axes[1]},
                          Type::tensor(-1, receiver->type.dtype), range);
  }
  if (method == "transpose") {
    check_arity(args, shown, 2, 2, {});
    const int a = dim_of(args.positional[0], 0);
    const int b = dim_of(args.positional[1], 0);
    std::vector<int> order(rank);
    std::iota(order.begin(), order.end(), 0);
    std::swap(order[a], order[b]);
    return permute(order);
  }
  if (method == "permute") {
    std::vector<SyntaxNode> dims = args.positional;
    if (dims.size() == 1 && (dims[0].type() == "tuple" || dims[0].type() == "list")) {
      dims = dims[0].named_children();
    }
    need_rank();
    if (static_cast<int>(dims.size()) != rank) {
      fail(DiagnosticKind::kRankMismatch, range,
           fmt::format("`permute` needs {} dimensions for a tensor of rank {}", rank, rank));
    }
    std::vector<int> order;
    for (const SyntaxNode& dim : dims) order.push_back(dim_of(dim, 0));
    return permute(order);
  }
  if (auto op = host_reduction(method)) {
    check_arity(args, shown, 0, 2, {"dim", "keepdim"});
    const SyntaxNode dim_node = argument(args, 0, "dim");
    const SyntaxNode keep_node = argument(args, 1, "keepdim");
    const bool keep = bool_argument(keep_node, "`keepdim` must be True or False");
    if ((method == "max" || method == "min") && dim_node) {
      unsupported(range,
                  fmt::format("`{}` with a dimension in host code (use `amax`/`amin`)", shown));
    }
    ExprPtr dim = ir::NoneImm::make(range);
    int result_rank = 0;  // a full reduction gives a 0-d tensor
    if (dim_node) {
      dim = ir::IntImm::make(dim_of(dim_node, 0), dim_node.range());
      result_rank = keep ? rank : rank - 1;
    } else if (keep) {
      result_rank = rank;
    }
    std::optional<ir::ScalarType> dtype = receiver->type.dtype;
    if (*op == Intrinsic::kArgmax || *op == Intrinsic::kArgmin ||
        ((*op == Intrinsic::kSum || *op == Intrinsic::kProd) && dtype &&
         !ir::is_floating(*dtype))) {
      dtype = ir::ScalarType::kInt32;
    }
    return ir::Call::make(*op, {receiver, dim, ir::BoolImm::make(keep, range)},
                          Type::tensor(result_rank, dtype), range);
  }
  return nullptr;  // casts (`.to()`, `.float()`) are lower_cast_method's
}

// `x[idx]`, `x[:, :-1]`, `x[0]`, `x[None]` in host code: a jnp index of the whole array (a
// copy, as a gather is in PyTorch; stores into the result are refused in lower_store, since a
// slice would be PyTorch's view of the tensor). Static ints and slice bounds, integer arrays.
ExprPtr KernelLowering::lower_host_index(const ExprPtr& tensor, const SyntaxNode& subscript) {
  const SourceRange range = subscript.range();
  const Type& type = tensor->type;
  std::vector<ExprPtr> args = {tensor};
  int rank_change = 0;  // the result's rank minus the tensor's
  int axes_used = 0;
  bool rank_known = type.rank_known();
  const auto static_int = [&](const SyntaxNode& node) -> ExprPtr {
    if (!node) return ir::NoneImm::make(range);
    ExprPtr value = lower_expr(node);
    if (value->type.kind != TypeKind::kInt || ir::reads_kernel_values(kernel_, value)) {
      fail(DiagnosticKind::kTypeMismatch, node.range(), "a slice bound must be an integer");
    }
    return value;
  };
  const std::vector<SyntaxNode> items = subscript.children_by_field("subscript");
  const SyntaxNode* ellipsis = single_ellipsis(items);
  size_t ellipsis_at = 0;  // where in `args` the `:`s that `...` stands for go
  for (const SyntaxNode& item : items) {
    if (item.type() == "ellipsis") {
      ellipsis_at = args.size();
      continue;
    }
    if (item.type() == "slice") {
      const SliceParts parts = slice_parts(item);
      std::vector<ExprPtr> bounds = {static_int(parts[0]), static_int(parts[1]),
                                     static_int(parts[2])};
      std::vector<Type> types;
      for (const ExprPtr& bound : bounds) types.push_back(bound->type);
      args.push_back(
          ir::TupleExpr::make(std::move(bounds), Type::tuple(std::move(types)), item.range()));
      ++axes_used;
      continue;
    }
    ExprPtr value = lower_expr(item);
    if (value->type.kind == TypeKind::kNone) {
      ++rank_change;
    } else if (value->type.kind == TypeKind::kInt && !ir::reads_kernel_values(kernel_, value)) {
      --rank_change;
      ++axes_used;
    } else if (value->type.kind == TypeKind::kTensor &&
               (!value->type.dtype || (!ir::is_floating(*value->type.dtype) &&
                                       *value->type.dtype != ir::ScalarType::kBool))) {
      // A gather along this axis: the index array's axes replace it.
      if (value->type.rank_known()) {
        rank_change += value->type.rank - 1;
      } else {
        rank_known = false;
      }
      ++axes_used;
    } else {
      fail(DiagnosticKind::kTypeMismatch, item.range(),
           fmt::format("a host-code index must be an int, a slice, None or an integer tensor, "
                       "not `{}`",
                       ir::type_to_string(value->type)));
    }
    args.push_back(std::move(value));
  }
  if (ellipsis) {
    // `...`: as many `:` as the other entries leave axes, written out (the rank must be known).
    if (!type.rank_known()) {
      const std::string_view name = subscript.child_by_field("value").text();
      fail(DiagnosticKind::kUnsupported, ellipsis->range(),
           fmt::format("`...` in an index of `{}`, whose rank is only known at trace time, is "
                       "not supported: helionc expands `...` while compiling (unpack `{}.shape` "
                       "to state its rank)",
                       name, name));
    }
    const int whole = std::max(0, type.rank - axes_used);
    const auto none = [&] { return ir::NoneImm::make(ellipsis->range()); };
    std::vector<ExprPtr> colons;
    for (int i = 0; i < whole; ++i) {
      colons.push_back(ir::TupleExpr::make({none(), none(), none()},
                                           Type::tuple({none()->type, none()->type, none()->type}),
                                           ellipsis->range()));
    }
    args.insert(args.begin() + static_cast<std::ptrdiff_t>(ellipsis_at), colons.begin(),
                colons.end());
  }
  if (type.rank_known() && axes_used > type.rank) {
    fail(DiagnosticKind::kRankMismatch, range,
         fmt::format("{} indices for a tensor of {} dimension{}", axes_used, type.rank,
                     type.rank == 1 ? "" : "s"));
  }
  const int rank = rank_known ? type.rank + rank_change : -1;
  return ir::Call::make(Intrinsic::kHostIndex, std::move(args), Type::tensor(rank, type.dtype),
                        range);
}

// `x.stride(d)`: JAX arrays are row-major and have no strides, so a tensor's strides are those
// PyTorch gives a contiguous tensor of its shape (the innermost is 1).
ExprPtr KernelLowering::lower_stride(const ExprPtr& receiver, const SyntaxNode& receiver_node,
                                     const CallArgs& args) {
  const SourceRange range = args.call.range();
  check_arity(args, ".stride()", 0, 1, {"dim"});
  if (in_device()) {
    unsupported(range, "`.stride()` inside a tile loop (read it into a name before the loop)");
  }
  const int rank = receiver->type.rank_known() ? receiver->type.rank : -1;
  const SyntaxNode dim_node = argument(args, 0, "dim");
  if (!dim_node) {
    return ir::Call::make(Intrinsic::kStride, {receiver, ir::NoneImm::make(range)},
                          Type::shape(rank), range);
  }
  ExprPtr axis = lower_expr(dim_node);
  const auto* imm = axis->as<ir::IntImm>();
  if (!imm) unsupported(axis->range, "`stride()` with a computed dimension");
  int64_t value = imm->value;
  if (rank >= 0 && (value >= rank || value < -rank)) {
    fail(DiagnosticKind::kRankMismatch, axis->range,
         fmt::format("dimension {} is out of range for `{}` with {} dimension{}", value,
                     receiver_node.text(), rank, rank == 1 ? "" : "s"));
  }
  if (rank >= 0 && value < 0) value += rank;
  if (value == -1 || (rank >= 0 && value == rank - 1)) return ir::IntImm::make(1, range);
  return ir::Call::make(Intrinsic::kStride, {receiver, ir::IntImm::make(value, axis->range)},
                        Type::scalar(TypeKind::kInt), range);
}

void KernelLowering::refuse_reads_through_other_views(const ir::Block& launch_body) {
  // The module passes each name's array to the kernel on its own, so a read through one view
  // (`alias = x.view(m, n)`) after a store through another (`x[tile, :] = ...`) would see the
  // old values where Helion sees the new ones.
  const auto root = [&](int binding) {
    for (auto it = views_.find(binding); it != views_.end(); it = views_.find(binding)) {
      binding = it->second.first;
    }
    return binding;
  };
  struct Orderer : ir::Visitor {
    std::function<int(int)> root;
    std::map<int, int> stored;  // root -> the binding stored through
    const ir::Load* stale = nullptr;
    void visit_node(const ir::Store& node) override {
      ir::Visitor::visit_node(node);
      const int binding = node.tensor->as<ir::VarRef>()->binding;
      stored.emplace(root(binding), binding);
    }
    void visit_node(const ir::Load& node) override {
      ir::Visitor::visit_node(node);
      const auto* tensor = node.tensor->as<ir::VarRef>();
      if (tensor == nullptr || stale != nullptr) return;
      auto it = stored.find(root(tensor->binding));
      if (it != stored.end() && it->second != tensor->binding) stale = &node;
    }
  } orderer;
  orderer.root = root;
  orderer.visit(launch_body);
  if (orderer.stale == nullptr) return;
  const int read = orderer.stale->tensor->as<ir::VarRef>()->binding;
  const int written = orderer.stored.at(root(read));
  unsupported(orderer.stale->range,
              fmt::format("reading `{}` after a store through `{}`, a view of the same array, "
                          "in one loop (read and write it through one name)",
                          kernel_.bindings[static_cast<size_t>(read)].name,
                          kernel_.bindings[static_cast<size_t>(written)].name));
}

void KernelLowering::write_back_views(const ir::Block& launch_body, ir::Block& out) {
  refuse_reads_through_other_views(launch_body);
  for (int view : ir::stored_tensors(launch_body)) write_back_view(view, out);
}

void KernelLowering::write_back_view(int view, ir::Block& out) {
  // Walk up a chain of views (`out.view(-1).unsqueeze(0)`), rebinding each viewed tensor.
  int current = view;
  while (views_.count(current)) {
    const int base = views_.at(current).first;  // copies: the entry is repointed below
    const ExprPtr expr = views_.at(current).second;
    if (const auto name = scope_.find(binding(base).name);
        name != scope_.end() && name->second != base) {
      // `x = x.view(-1)`: the viewed array has no name left, so nothing can read it again;
      // a parameter's caller still would, which the return reports.
      note_param_write(base, kNoName);
      if (holds_param_.count(base)) rebound_names_[holds_param_.at(base)] = name->second;
      break;
    }
    const auto* call = expr->as<ir::Call>();
    const SourceRange range = expr->range;
    ExprPtr written_value = ref(current, range);
    ExprPtr restored;
    if (call->op == Intrinsic::kSwapAxes) {
      // Swapping the same two axes again undoes it.
      restored = ir::Call::make(Intrinsic::kSwapAxes, {written_value, call->args[1], call->args[2]},
                                binding(base).type, range);
    } else if (call->op == Intrinsic::kPermute) {
      // The inverse permutation puts the axes back.
      const auto& order = call->args[1]->as<ir::TupleExpr>()->elements;
      std::vector<ExprPtr> inverse(order.size());
      for (size_t i = 0; i < order.size(); ++i) {
        inverse[order[i]->as<ir::IntImm>()->value] =
            ir::IntImm::make(static_cast<int64_t>(i), range);
      }
      const int n = static_cast<int>(inverse.size());
      restored =
          make_host_view(Intrinsic::kPermute, written_value,
                         ir::TupleExpr::make(std::move(inverse), Type::shape(n), range), n, range);
    } else {
      const Type& base_type = binding(base).type;
      ExprPtr shape = ir::Call::make(Intrinsic::kShapeOf, {ref(base, range)},
                                     Type::shape(base_type.rank), range);
      restored = make_host_view(Intrinsic::kReshape, written_value, shape, base_type.rank, range);
    }
    const int rebound =
        bind(binding(base).name, binding(base).type, ir::Binding::Origin::kHost, range);
    out.push_back(ir::Let::make(rebound, restored, range));
    note_param_write(base, rebound);
    // Later views of the same tensor must see the new values: keep the view relation, and
    // the view's next write goes into the rebound tensor.
    if (views_.count(base)) views_[rebound] = views_.at(base);
    views_[current].first = rebound;
    current = base;
    (void)rebound;
  }
}

}  // namespace helionc::frontend
