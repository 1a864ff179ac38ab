// Orderings of tile values: `torch.sort`, `torch.topk`, `torch.argsort` and their tensor methods,
// one ir::Intrinsic::kSortLast each (values and int32 positions of the first `count` elements of
// the whole last axis in order). Mosaic has no sort primitive, so the module ranks and places
// elements by compares (templates/helper_sort_last.py.tmpl): the axis must be whole in the value
// (a block holds part of a tensor axis, and Helion sorts the values the kernel holds) and last.
// Positions are int32, torch's int64 narrowed as for argmax.
#include <fmt/format.h>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::Dim;
using ir::ExprPtr;
using ir::Intrinsic;
using ir::Type;
using ir::TypeKind;

ExprPtr KernelLowering::make_sort(std::string_view kind, const ExprPtr& value, const CallArgs& args,
                                  size_t first) {
  // `first`: the position of the first argument after the value (1 for torch.sort(x, ...), 0
  // for x.sort(...)).
  const SourceRange range = args.call.range();
  const bool topk = kind == "topk";
  const std::string shown = first == 0 ? fmt::format(".{}()", kind) : fmt::format("torch.{}", kind);
  if (!in_device()) unsupported(range, fmt::format("`{}` in host code", shown));
  const auto at = [&](size_t position, std::string_view name) {
    return argument(args, first + position, name);
  };
  if (topk) {
    check_arity(args, shown, first + 1, first + 4, {"input", "k", "dim", "largest", "sorted"});
  } else {
    check_arity(args, shown, first, first + 2, {"input", "dim", "descending", "stable"});
  }
  if (value->type.kind != TypeKind::kTileTensor || value->type.tile_rank() < 1) {
    fail(DiagnosticKind::kTypeMismatch, value->range,
         fmt::format("`{}` takes a tile value of a known rank", shown));
  }
  if (value->type.dtype == ir::ScalarType::kBool) {
    unsupported(value->range, fmt::format("`{}` of booleans", shown));
  }
  const int rank = value->type.tile_rank();
  const SyntaxNode dim_node = topk ? at(1, "dim") : at(0, "dim");
  const int axis = dim_node ? dim_argument(rank, dim_node) : rank - 1;
  if (axis != rank - 1) {
    fail(DiagnosticKind::kUnsupported, dim_node.range(),
         fmt::format("`{}` along dimension {} of a value of rank {} is not supported yet: only "
                     "along the last (move the axis last with `.transpose`)",
                     shown, axis, rank));
  }
  const Dim& sorted = value->type.dims.back();
  if (sorted.kind != Dim::Kind::kFull && sorted.kind != Dim::Kind::kLiteral &&
      sorted.kind != Dim::Kind::kUnit) {
    fail(DiagnosticKind::kUnsupported, value->range,
         fmt::format("`{}` along dimension {} of a value of shape {} is not supported: a block "
                     "holds only part of that tensor axis; index it with `:` so the value holds "
                     "the whole axis",
                     shown, axis, dims_to_string(kernel_, value->type.dims)));
  }
  bool descending = false;
  if (topk) {
    const SyntaxNode largest = at(2, "largest");
    descending = !largest || bool_argument(largest, "`largest` must be True or False");
    if (const SyntaxNode in_order = at(3, "sorted")) {
      bool_argument(in_order, "`sorted` must be True or False");  // sorted either way
    }
  } else {
    descending = bool_argument(at(1, "descending"), "`descending` must be True or False");
    if (const SyntaxNode stable = args.keyword("stable")) {
      bool_argument(stable, "`stable` must be True or False");  // stable either way
    }
  }
  ExprPtr count = ir::NoneImm::make(range);
  Dim counted = sorted;
  if (topk) {
    // `k` names the result's last dimension: a number, or a host int known when JAX traces
    // the kernel (an `hl.specialize`d value, a parameter, `x.size(1) // 4`: a computed size,
    // which _sort_last checks against the axis then).
    const SyntaxNode k_node = at(0, "k");
    const ExprPtr k = resolve_host_size(lower_expr(k_node));
    const auto* imm = k->as<ir::IntImm>();
    const std::optional<Dim> named = imm ? std::nullopt : named_size_dim(k, k_node);
    if (!imm && !named) {
      fail(DiagnosticKind::kUnsupported, k_node.range(),
           fmt::format("`{}` with a `k` other than a number or a host int known when JAX traces "
                       "the kernel (an `hl.specialize`d value, a size) is not supported: the "
                       "result's last axis has `k` elements, and device code cannot size a "
                       "value",
                       shown));
    }
    if (imm &&
        (imm->value < 1 || (sorted.kind == Dim::Kind::kLiteral && imm->value > sorted.extent) ||
         (sorted.kind == Dim::Kind::kUnit && imm->value > 1))) {
      fail(DiagnosticKind::kBadArgument, k_node.range(),
           fmt::format("`{}` takes a `k` from 1 to the length of the axis, not {}", shown,
                       imm->value));
    }
    if (imm) {
      counted = imm->value == 1 ? Dim::unit() : Dim::literal(imm->value);
    } else {
      counted = *named;
    }
    count = dim_size(counted, k_node.range());
  }
  std::vector<Dim> dims = value->type.dims;
  dims.back() = counted;
  Type values_type = Type::tile_tensor(dims, value->type.dtype);
  Type indices_type = Type::tile_tensor(dims, ir::ScalarType::kInt32);
  ExprPtr call = ir::Call::make(Intrinsic::kSortLast,
                                {value, ir::BoolImm::make(descending, range), std::move(count)},
                                Type::tuple({values_type, indices_type}), range);
  if (kind != "argsort") return call;
  return ir::TupleGet::make(std::move(call), 1, std::move(indices_type), range);
}

}  // namespace helionc::frontend
