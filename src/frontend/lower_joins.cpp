// Tile values joined along an axis: `torch.cat` (`concat`, `concatenate`) of several, and
// `torch.nn.functional.pad` (constant mode) of one. The joined axis must not be a tile's block
// (a block's size is a config's, and two blocks side by side are no block of any tile), and its
// size is the sum of its parts: ir::Intrinsic::kConcat and kPad keep the parts, the result type
// the sum (joined_axis): a number, or, with a tensor's axis or a computed size among the parts
// (`x.size(1) + y.size(1)`, `x.size(1) + 128`), a computed size (Dim::Kind::kComputed, a host
// int once JAX traces the module, checked there against the sizes it meets).
#include <fmt/format.h>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::Dim;
using ir::ExprPtr;
using ir::Intrinsic;
using ir::Type;
using ir::TypeKind;

namespace {

// A joined axis's size as whole tensor axes and computed sizes plus a number
// (`x.size(1) + y.size(1)`, `n + 128`).
struct JoinedSize {
  std::vector<Dim> terms;  // Dim::Kind::kFull or kComputed, in the parts' order
  int64_t number = 0;
};

// Adds one part (a dimension that is no tile's block) to `size`; false for a part no sum can
// hold (a tile's block, a slice, a rank-polymorphic tile).
bool add_part(JoinedSize& size, const Dim& part) {
  switch (part.kind) {
    case Dim::Kind::kUnit:
      size.number += 1;
      return true;
    case Dim::Kind::kLiteral:
      size.number += part.extent;
      return true;
    case Dim::Kind::kFull:
    case Dim::Kind::kComputed:
      size.terms.push_back(part);
      return true;
    default:
      return false;
  }
}

// The sum as Python spells it, for the module's trace-time messages.
std::string joined_text(const ir::Kernel& kernel, const JoinedSize& size) {
  std::vector<std::string> terms;
  for (const Dim& term : size.terms) {
    if (term.kind == Dim::Kind::kFull) {
      terms.push_back(fmt::format("{}.size({})", kernel.bindings[term.binding].name, term.axis));
    } else {
      terms.push_back(kernel.computed_sizes[static_cast<size_t>(term.size)].text);
    }
  }
  if (size.number != 0 || terms.empty()) terms.push_back(std::to_string(size.number));
  return fmt::format("{}", fmt::join(terms, " + "));
}

}  // namespace

Dim KernelLowering::joined_axis(const std::vector<Dim>& parts, std::string_view shown, int axis,
                                SourceRange range) {
  JoinedSize size;
  for (const Dim& part : parts) {
    if (!add_part(size, part)) {
      fail(DiagnosticKind::kUnsupported, range,
           fmt::format("`{}` along dimension {}, which a tile's block or a slice makes up here, "
                       "is not supported yet: the joined axis must be a whole tensor axis "
                       "(index it with `:`), a number or a host int computed from sizes",
                       shown, axis));
    }
  }
  if (size.terms.empty()) return size.number == 1 ? Dim::unit() : Dim::literal(size.number);
  if (size.terms.size() == 1 && size.number == 0) return size.terms.front();
  // The host sum, left to right as the source writes it (`x.size(1) + y.size(1)`), so that an
  // allocation spelling the same sum interns to the same computed size.
  ExprPtr sum;
  for (const Dim& term : size.terms) {
    ExprPtr value = dim_size(term, range);
    sum = sum ? ir::Binary::make(ir::BinaryOp::kAdd, std::move(sum), std::move(value),
                                 Type::scalar(TypeKind::kInt), range)
              : std::move(value);
  }
  if (size.number != 0) {
    sum = ir::Binary::make(ir::BinaryOp::kAdd, std::move(sum), ir::IntImm::make(size.number, range),
                           Type::scalar(TypeKind::kInt), range);
  }
  const std::optional<Dim> dim = named_size_dim(sum, joined_text(kernel_, size));
  if (!dim) {
    fail(DiagnosticKind::kUnsupported, range,
         fmt::format("`{}` along dimension {} makes an axis of size {}, which is not a size "
                     "known when JAX traces the kernel",
                     shown, axis, joined_text(kernel_, size)));
  }
  return *dim;
}

std::vector<ExprPtr> KernelLowering::written_out_values(const CallArgs& args,
                                                        std::string_view shown) {
  const SyntaxNode list = argument(args, 0, "tensors");
  if (list.type() != "list" && list.type() != "tuple") {
    fail(DiagnosticKind::kUnsupported, list.range(),
         fmt::format("`{}` takes a list or tuple of tile values written out here", shown));
  }
  std::vector<ExprPtr> values;
  for (const SyntaxNode& entry : list.named_children()) values.push_back(lower_expr(entry));
  if (values.empty()) {
    fail(DiagnosticKind::kBadArgument, list.range(), fmt::format("`{}` of no values", shown));
  }
  return values;
}

ExprPtr KernelLowering::make_concat(const CallArgs& args, std::string_view shown) {
  // torch.cat(tensors, dim=0): tile values of one rank along an existing axis, as
  // jnp.concatenate; the other axes agree as in torch (no broadcasting).
  const SourceRange range = args.call.range();
  if (!in_device()) unsupported(range, fmt::format("`{}` in host code", shown));
  check_arity(args, shown, 1, 2, {"tensors", "dim", "axis"});
  std::vector<ExprPtr> values = written_out_values(args, shown);
  const int rank = values.front()->type.tile_rank();
  std::optional<ir::ScalarType> dtype = values.front()->type.dtype;
  for (const ExprPtr& value : values) {
    if (value->type.kind != TypeKind::kTileTensor || value->type.tile_rank() < 1) {
      fail(DiagnosticKind::kTypeMismatch, value->range,
           fmt::format("`{}` takes tile values of a known rank of at least 1", shown));
    }
    if (value->type.tile_rank() != rank) {
      fail(DiagnosticKind::kRankMismatch, value->range,
           fmt::format("`{}` takes values of one rank: {} and {} differ", shown, rank,
                       value->type.tile_rank()));
    }
    dtype = result_dtype(values.front()->type, value->type, ArithKind::kArithmetic);
  }
  SyntaxNode dim_node = argument(args, 1, "dim");
  if (!dim_node) dim_node = args.keyword("axis");
  const int axis = dim_node ? dim_argument(rank, dim_node) : 0;
  std::vector<Dim> dims = values.front()->type.dims;
  std::vector<Dim> parts;
  for (const ExprPtr& value : values) {
    parts.push_back(value->type.dims[static_cast<size_t>(axis)]);
    for (size_t d = 0; d < dims.size(); ++d) {
      if (static_cast<int>(d) == axis) continue;
      // The other axes agree as in torch (no broadcasting): one dimension, whole axes (which
      // jnp compares when JAX traces the module), or a number and a whole axis (checked then).
      const Dim& a = dims[d];
      const Dim& b = value->type.dims[d];
      const bool whole = a.kind == Dim::Kind::kFull || a.kind == Dim::Kind::kLiteral;
      const bool other_whole = b.kind == Dim::Kind::kFull || b.kind == Dim::Kind::kLiteral;
      if (a == b || (a.kind == Dim::Kind::kFull && b.kind == Dim::Kind::kFull)) continue;
      if (whole && other_whole && a.kind != b.kind) {
        unify_dims({a}, {b}, value->range);  // the trace-time check of the whole axis
        if (b.kind == Dim::Kind::kLiteral) dims[d] = b;
        continue;
      }
      fail(DiagnosticKind::kShapeMismatch, value->range,
           fmt::format("`{}` takes values of one shape but along dimension {}: {} and {} differ",
                       shown, axis, dims_to_string(kernel_, values.front()->type.dims),
                       dims_to_string(kernel_, value->type.dims)));
    }
  }
  dims[static_cast<size_t>(axis)] = joined_axis(parts, shown, axis, range);
  std::vector<Type> element_types;
  for (const ExprPtr& value : values) element_types.push_back(value->type);
  ExprPtr joined = ir::TupleExpr::make(std::move(values), Type::tuple(std::move(element_types)),
                                       argument(args, 0, "tensors").range());
  return ir::Call::make(Intrinsic::kConcat, {std::move(joined), ir::IntImm::make(axis, range)},
                        Type::tile_tensor(std::move(dims), dtype), range);
}

ExprPtr KernelLowering::make_pad(const CallArgs& args, std::string_view shown) {
  // F.pad(input, (left, right, top, bottom, ...), mode="constant", value=0): widths in pairs
  // from the last axis backwards, one kPad per padded axis.
  const SourceRange range = args.call.range();
  if (!in_device()) unsupported(range, fmt::format("`{}` in host code", shown));
  check_arity(args, shown, 2, 4, {"input", "pad", "mode", "value"});
  ExprPtr value = lower_expr(argument(args, 0, "input"));
  if (value->type.kind != TypeKind::kTileTensor || value->type.tile_rank() < 1) {
    fail(DiagnosticKind::kTypeMismatch, value->range,
         fmt::format("`{}` takes a tile value of a known rank", shown));
  }
  if (const SyntaxNode mode = argument(args, 2, "mode")) {
    const ExprPtr text = lower_expr(mode);
    const auto* literal = text->as<ir::StringImm>();
    if (!literal || (literal->spelling != "\"constant\"" && literal->spelling != "'constant'")) {
      fail(DiagnosticKind::kUnsupported, mode.range(),
           fmt::format("`{}` with a mode other than \"constant\" is not supported yet", shown));
    }
  }
  ExprPtr fill = ir::IntImm::make(0, range);
  if (const SyntaxNode fill_node = argument(args, 3, "value")) {
    fill = lower_expr(fill_node);
    if (fill->kind == ir::ExprKind::kNoneImm) fill = ir::IntImm::make(0, range);
    if (!fill->type.is_scalar() || is_device_value(fill)) {
      fail(DiagnosticKind::kTypeMismatch, fill_node.range(),
           fmt::format("`{}` takes a number known when JAX traces the kernel as its `value`",
                       shown));
    }
  }
  const SyntaxNode widths_node = argument(args, 1, "pad");
  if (widths_node.type() != "tuple" && widths_node.type() != "list") {
    fail(DiagnosticKind::kUnsupported, widths_node.range(),
         fmt::format("`{}` takes its widths as a tuple or list written out here", shown));
  }
  // A width is a number, or a host int known when JAX traces the kernel (`n`, `x.size(1)`,
  // `k` from hl.specialize): then it is a dimension of the joined sum (a computed size) and the
  // module pads by its value.
  struct Width {
    ExprPtr value;  // an IntImm, or the size's host expression
    std::optional<Dim> dim;
  };
  std::vector<Width> widths;
  for (const SyntaxNode& entry : widths_node.named_children()) {
    const ExprPtr width = resolve_host_size(lower_expr(entry));
    if (const auto* imm = width->as<ir::IntImm>()) {
      if (imm->value < 0) {
        fail(DiagnosticKind::kUnsupported, entry.range(),
             fmt::format("a negative `{}` width (cropping) is not supported yet", shown));
      }
      std::optional<Dim> dim;
      if (imm->value > 0) dim = imm->value == 1 ? Dim::unit() : Dim::literal(imm->value);
      widths.push_back({ir::IntImm::make(imm->value, entry.range()), dim});
      continue;
    }
    const std::optional<Dim> dim =
        width->type.kind == TypeKind::kInt ? named_size_dim(width, entry) : std::nullopt;
    if (!dim || dim->kind == Dim::Kind::kTile) {
      fail(DiagnosticKind::kUnsupported, entry.range(),
           fmt::format("a `{}` width other than a number or a host int known when JAX traces "
                       "the kernel (`n`, `x.size(1)`) is not supported: it sizes the result",
                       shown));
    }
    // A computed width below 0 would crop: checked before the launch while JAX traces
    // (jnp.pad's own error names no source line). A tensor's axis is never negative.
    ExprPtr width_value = dim_size(*dim, entry.range());
    const std::string spelled = dims_to_string(kernel_, {*dim});  // "[k + 1]"
    const std::string text = fmt::format(
        "the `{}` width {} must be at least 0 (a negative width crops, which is not supported "
        "yet); it is ",
        shown, spelled.substr(1, spelled.size() - 2));
    if (dim->kind == Dim::Kind::kComputed && required_sizes_.insert(">=" + text).second) {
      pending_size_checks_.push_back(ir::Assert::make(
          ir::Compare::make(ir::CompareOp::kGe, width_value, ir::IntImm::make(0, entry.range()),
                            Type::scalar(TypeKind::kBool), entry.range()),
          ir::StringImm::make(fmt::format("\"{}\"", text), entry.range()), entry.range(),
          /*implied=*/true));
    }
    widths.push_back({std::move(width_value), dim});
  }
  const int rank = value->type.tile_rank();
  if (widths.size() % 2 != 0 || widths.size() > 2 * static_cast<size_t>(rank)) {
    fail(DiagnosticKind::kBadArgument, widths_node.range(),
         fmt::format("`{}` takes an even number of widths, two per padded dimension, at most {} "
                     "for a value of rank {}",
                     shown, 2 * rank, rank));
  }
  for (size_t pair = 0; pair * 2 < widths.size(); ++pair) {
    const Width& low = widths[pair * 2];
    const Width& high = widths[pair * 2 + 1];
    if (!low.dim && !high.dim) continue;  // both 0
    const int axis = rank - 1 - static_cast<int>(pair);
    std::vector<Dim> dims = value->type.dims;
    std::vector<Dim> parts = {dims[static_cast<size_t>(axis)]};
    if (low.dim) parts.push_back(*low.dim);
    if (high.dim) parts.push_back(*high.dim);
    dims[static_cast<size_t>(axis)] = joined_axis(parts, shown, axis, range);
    Type type = Type::tile_tensor(std::move(dims), value->type.dtype);
    value = ir::Call::make(Intrinsic::kPad,
                           {value, ir::IntImm::make(axis, range), low.value, high.value, fill},
                           std::move(type), range);
  }
  return value;
}

}  // namespace helionc::frontend
