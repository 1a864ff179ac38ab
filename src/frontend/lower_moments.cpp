// Variance and standard deviation of a tile value: `torch.var`, `torch.std`, `torch.var_mean`,
// `torch.std_mean` and the methods `.var()`/`.std()`. They are built from the reductions the
// strategies already mask (mean over the reduced axes, then the mean of the squared
// deviations), so a partial block counts only its live elements, as one `mean` does.
//
// PyTorch's `correction` (Bessel's: 1 by default; `unbiased=False` is 0) divides by
// n - correction instead of n. n is the reduced element count, which helionc can name only for
// whole axes and literal sizes; along a tile's block it is the block's live length, which
// differs between blocks, so a correction there is refused.
#include <fmt/format.h>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::Dim;
using ir::ExprPtr;
using ir::Intrinsic;
using ir::Type;
using ir::TypeKind;

ExprPtr KernelLowering::lower_moments(std::string_view name, const ExprPtr& receiver,
                                      const CallArgs& args) {
  const bool with_mean = name == "var_mean" || name == "std_mean";
  const bool deviation = name == "std" || name == "std_mean";
  if (!with_mean && !deviation && name != "var") return nullptr;
  const SourceRange range = args.call.range();
  const std::string shown = fmt::format("`{}`", name);
  check_arity(args, shown, 0, 1, {"dim", "correction", "unbiased", "keepdim"});
  if (receiver->type.kind != TypeKind::kTileTensor ||
      (receiver->type.dtype && !ir::is_floating(*receiver->type.dtype))) {
    fail(DiagnosticKind::kTypeMismatch, receiver->range,
         fmt::format("{} needs a tile of floating-point values", shown));
  }
  const SyntaxNode dim = argument(args, 0, "dim");
  const std::vector<int> axes = reduced_axes(Intrinsic::kMean, receiver, dim, range);
  const SyntaxNode keepdim = args.keyword("keepdim");
  if (keepdim && !dim) {
    fail(DiagnosticKind::kBadArgument, keepdim.parent().range(),
         fmt::format("{} takes `keepdim` only together with `dim`", shown));
  }
  const bool keep = bool_argument(keepdim, "`keepdim` must be True or False");

  int64_t correction = 1;
  const SyntaxNode correction_node = args.keyword("correction");
  const SyntaxNode unbiased = args.keyword("unbiased");
  if (correction_node && unbiased) {
    fail(DiagnosticKind::kBadArgument, range,
         fmt::format("{} takes `correction` or `unbiased`, not both", shown));
  }
  if (correction_node) {
    const ExprPtr value = lower_expr(correction_node);
    const auto* imm = value->as<ir::IntImm>();
    if (imm == nullptr || imm->value < 0) {
      fail(DiagnosticKind::kBadArgument, correction_node.range(),
           "`correction` must be a non-negative integer written as a number");
    }
    correction = imm->value;
  } else if (unbiased) {
    correction = bool_argument(unbiased, "`unbiased` must be True or False") ? 1 : 0;
  }

  const ExprPtr centre = reduce_axes(Intrinsic::kMean, receiver, axes, /*keep=*/true, range);
  const ExprPtr deviations = make_binary(ir::BinaryOp::kSub, receiver, centre, range);
  ExprPtr spread =
      reduce_axes(Intrinsic::kMean,
                  make_binary(ir::BinaryOp::kPow, deviations, ir::IntImm::make(2, range), range),
                  axes, keep, range);
  if (correction != 0) {
    // n / (n - correction), n the product of the reduced axes' sizes.
    ExprPtr count;
    for (const int axis : axes) {
      const Dim& reduced = receiver->type.dims[static_cast<size_t>(axis)];
      ExprPtr size;
      switch (reduced.kind) {
        case Dim::Kind::kFull:
          size =
              ir::Call::make(Intrinsic::kSize,
                             {ref(reduced.binding, range), ir::IntImm::make(reduced.axis, range)},
                             Type::scalar(TypeKind::kInt), range);
          break;
        case Dim::Kind::kLiteral:
          size = ir::IntImm::make(reduced.extent, range);
          break;
        case Dim::Kind::kComputed:
          size = dim_size(reduced, range);
          break;
        case Dim::Kind::kUnit:
          size = ir::IntImm::make(1, range);
          break;
        case Dim::Kind::kTile:
        case Dim::Kind::kTilePart:
        case Dim::Kind::kSlice:
        case Dim::Kind::kVariadic:
          fail(DiagnosticKind::kUnsupported, range,
               fmt::format("{} with a correction along dimension {}, which is not a whole "
                           "tensor axis (a block's live length differs between blocks), is not "
                           "supported yet; pass `correction=0`, or reduce a whole axis "
                           "(`x[tile, :]`)",
                           shown, axis));
      }
      count = count ? make_binary(ir::BinaryOp::kMul, std::move(count), std::move(size), range)
                    : std::move(size);
    }
    const ExprPtr divisor =
        make_binary(ir::BinaryOp::kSub, count, ir::IntImm::make(correction, range), range);
    spread = make_binary(ir::BinaryOp::kMul, std::move(spread),
                         make_binary(ir::BinaryOp::kDiv, count, divisor, range), range);
  }
  if (deviation) spread = make_math(Intrinsic::kSqrt, std::move(spread), range);
  if (!with_mean) return spread;
  const ExprPtr mean = keep ? centre : reduce_axes(Intrinsic::kMean, receiver, axes, keep, range);
  Type type = Type::tuple({spread->type, mean->type});
  return ir::TupleExpr::make({spread, mean}, std::move(type), range);
}

}  // namespace helionc::frontend
