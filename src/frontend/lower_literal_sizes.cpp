// Literal sizes (`hl.zeros([2, 128])`, a constant slice `v[1:3]` of a tile value): static
// dimensions (ir::Dim::Kind::kLiteral). Where one meets a tensor's whole axis (`acc +
// x[tile, :, :].sum(0)`, a store, a carry) the two must be equal, which only the call's shapes
// tell: Helion specializes shapes (`static_shapes=True`), so the kernel means the literal, and
// the module checks the axis at trace time with a clear error (an implied `ir::Assert` before
// the launch) instead of letting jnp broadcast a size-1 axis or fail inside the kernel.
#include <fmt/format.h>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::Dim;
using ir::Type;
using ir::TypeKind;

std::optional<std::vector<Dim>> KernelLowering::unify_dims(const std::vector<Dim>& a,
                                                           const std::vector<Dim>& b,
                                                           SourceRange range) {
  std::vector<SizeAgreement> agreements;
  auto merged = broadcast_dims(a, b, &agreements);
  if (merged) {
    for (const SizeAgreement& agreement : agreements) require_size(agreement, range);
  }
  return merged;
}

void KernelLowering::require_size(const SizeAgreement& agreement, SourceRange range,
                                  ir::CompareOp op) {
  const Dim& full = agreement.full;
  const Dim& wanted = agreement.literal;
  const bool at_least = op == ir::CompareOp::kGe;
  const auto spelled = [&](const Dim& dim) {
    const std::string text = dims_to_string(kernel_, {dim});  // "[x.size(1)]"
    return text.substr(1, text.size() - 2);
  };
  const std::string have = spelled(full);
  const std::string want = spelled(wanted);
  // The names are identifiers and the rest is plain text: a valid Python literal as spelled.
  std::string text;
  if (agreement.broadcast_tile >= 0) {
    text = fmt::format(
        "{} must be 1: the kernel broadcasts that whole axis against the blocks of `{}` "
        "(PyTorch broadcasts only an axis of length 1); it is ",
        have, kernel_.tile_dims[agreement.broadcast_tile].name);
  } else if (at_least) {
    text = fmt::format("{} must be at least {}: the kernel reads that axis up to there; it is ",
                       have, want);
  } else if (wanted.kind == Dim::Kind::kLiteral) {
    text = fmt::format(
        "{} must be {}: the kernel combines that axis here with a size written as the number {} "
        "(Helion specializes shapes); it is ",
        have, want, want);
  } else {
    text = fmt::format(
        "{} must be {}: the kernel combines the two sizes here, which Helion's shapes make "
        "equal; it is ",
        have, want);
  }
  // One check per message and operator (the same sizes meet at many places).
  if (!required_sizes_.insert(fmt::format("{}{}", at_least ? ">=" : "==", text)).second) return;
  ir::ExprPtr equal = ir::Compare::make(op, dim_size(full, range), dim_size(wanted, range),
                                        Type::scalar(TypeKind::kBool), range);
  ir::ExprPtr message = ir::StringImm::make(fmt::format("\"{}\"", text), range);
  pending_size_checks_.push_back(
      ir::Assert::make(std::move(equal), std::move(message), range, /*implied=*/true));
}

void KernelLowering::require_equal_axes(const Dim& a, const Dim& b, std::string_view why,
                                        SourceRange range) {
  const ir::Binding& lhs = kernel_.bindings[a.binding];
  const ir::Binding& rhs = kernel_.bindings[b.binding];
  const auto size = [&](const Dim& dim, const ir::Binding& tensor) {
    return ir::Call::make(
        ir::Intrinsic::kSize,
        {ir::VarRef::make(dim.binding, tensor.type, range), ir::IntImm::make(dim.axis, range)},
        Type::scalar(TypeKind::kInt), range);
  };
  ir::ExprPtr equal = ir::Compare::make(ir::CompareOp::kEq, size(a, lhs), size(b, rhs),
                                        Type::scalar(TypeKind::kBool), range);
  // The names are identifiers and the rest is plain text: a valid Python literal as spelled.
  const std::string text = fmt::format("{}.size({}) must equal {}.size({}): {}; it is ", lhs.name,
                                       a.axis, rhs.name, b.axis, why);
  pending_size_checks_.push_back(ir::Assert::make(
      std::move(equal), ir::StringImm::make(fmt::format("\"{}\"", text), range), range,
      /*implied=*/true));
}

void KernelLowering::flush_size_checks(ir::Block& out) {
  for (ir::StmtPtr& check : pending_size_checks_) out.push_back(std::move(check));
  pending_size_checks_.clear();
}

}  // namespace helionc::frontend
