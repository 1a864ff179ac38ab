// Host allocations: `out = torch.empty_like(x)`, `torch.empty(shape, dtype=..., device=...)`,
// `torch.zeros*`, `torch.full*`, `x.new_empty(...)`. Each becomes an Alloc: an array the kernel's
// launches produce, with an initial value when the source gives one.
#include <fmt/format.h>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::ExprPtr;
using ir::Intrinsic;
using ir::Type;
using ir::TypeKind;

namespace {

enum class AllocForm { kLike, kShape, kMethod };

struct AllocKind {
  AllocForm form;
  bool has_fill_arg;  // full / full_like / new_full take the fill value positionally
  int fill;           // 0 or 1 for zeros/ones; -1 for empty (undefined) or an explicit fill
};

std::optional<AllocKind> alloc_kind(std::string_view name) {
  if (name == "torch.empty_like") return AllocKind{AllocForm::kLike, false, -1};
  if (name == "torch.zeros_like") return AllocKind{AllocForm::kLike, false, 0};
  if (name == "torch.ones_like") return AllocKind{AllocForm::kLike, false, 1};
  if (name == "torch.full_like") return AllocKind{AllocForm::kLike, true, -1};
  if (name == "torch.empty") return AllocKind{AllocForm::kShape, false, -1};
  if (name == "torch.zeros") return AllocKind{AllocForm::kShape, false, 0};
  if (name == "torch.ones") return AllocKind{AllocForm::kShape, false, 1};
  if (name == "torch.full") return AllocKind{AllocForm::kShape, true, -1};
  if (name == "new_empty") return AllocKind{AllocForm::kMethod, false, -1};
  if (name == "new_zeros") return AllocKind{AllocForm::kMethod, false, 0};
  if (name == "new_ones") return AllocKind{AllocForm::kMethod, false, 1};
  if (name == "new_full") return AllocKind{AllocForm::kMethod, true, -1};
  return std::nullopt;
}

}  // namespace

bool KernelLowering::is_allocation_call(const SyntaxNode& value) const {
  if (value.type() != "call") return false;
  const SyntaxNode callee = value.child_by_field("function");
  if (auto name = imports_.qualified_name(callee)) return alloc_kind(*name).has_value();
  if (callee.type() == "attribute") {
    const auto kind = alloc_kind(callee.child_by_field("attribute").text());
    return kind && kind->form == AllocForm::kMethod;
  }
  return false;
}

ExprPtr KernelLowering::lower_alloc_sizes(const CallArgs& args, size_t count, SourceRange range) {
  // `torch.empty([m, n])`, `torch.empty(x.size())`, or the sizes as separate arguments
  // (`torch.empty(m, n)`, `x.new_empty(n)`), as PyTorch takes them.
  if (count == 1) {
    ExprPtr value = lower_expr(args.positional[0]);
    if (value->type.kind == TypeKind::kShape) return value;
    if (value->type.kind != TypeKind::kInt) {
      fail(DiagnosticKind::kTypeMismatch, args.positional[0].range(),
           fmt::format("expected a shape (`x.size()`, a list of sizes or sizes as arguments), "
                       "not `{}`",
                       args.positional[0].text()));
    }
    return ir::TupleExpr::make({value}, Type::shape(1), range);
  }
  std::vector<ExprPtr> sizes;
  for (size_t i = 0; i < count; ++i) {
    sizes.push_back(lower_expr(args.positional[i]));
    if (sizes.back()->type.kind != TypeKind::kInt) {
      fail(DiagnosticKind::kTypeMismatch, sizes.back()->range, "a size must be an integer");
    }
  }
  const int rank = static_cast<int>(sizes.size());
  return ir::TupleExpr::make(std::move(sizes), Type::shape(rank), range);
}

void KernelLowering::lower_allocation(const SyntaxNode& target, const SyntaxNode& value,
                                      ir::Block& out) {
  const SyntaxNode callee = value.child_by_field("function");
  const std::string shown(callee.text());
  const CallArgs args = split_args(value);
  const SourceRange range = value.range();
  const auto qualified = imports_.qualified_name(callee);
  const AllocKind kind = *alloc_kind(qualified ? std::string_view(*qualified)
                                               : callee.child_by_field("attribute").text());

  ExprPtr shape;
  ExprPtr dtype;
  ExprPtr fill;
  size_t next = 0;  // the next positional argument
  switch (kind.form) {
    case AllocForm::kLike: {
      check_arity(args, shown, kind.has_fill_arg ? 2 : 1, kind.has_fill_arg ? 2 : 1,
                  {"dtype", "device", "memory_format", "requires_grad"});
      ExprPtr like = lower_expr(args.positional[next++]);
      if (like->type.kind != TypeKind::kTensor) {
        fail(DiagnosticKind::kTypeMismatch, like->range,
             fmt::format("`{}` needs a tensor to copy the shape of", shown));
      }
      shape = ir::Call::make(Intrinsic::kShapeOf, {like}, Type::shape(like->type.rank), range);
      dtype = ir::Call::make(Intrinsic::kDtypeOf, {like}, Type::dtype_value(), range);
      break;
    }
    case AllocForm::kShape: {
      check_arity(args, shown, kind.has_fill_arg ? 2 : 1, kind.has_fill_arg ? 2 : 8,
                  {"dtype", "device", "requires_grad"});
      const size_t count = kind.has_fill_arg ? 1 : args.positional.size();
      shape = lower_alloc_sizes(args, count, range);
      next = count;
      dtype = ir::DtypeImm::make(ir::ScalarType::kFloat32, range);  // torch's default dtype
      break;
    }
    case AllocForm::kMethod: {
      check_arity(args, shown, kind.has_fill_arg ? 2 : 1, kind.has_fill_arg ? 2 : 8,
                  {"dtype", "device", "requires_grad"});
      ExprPtr like = lower_expr(callee.child_by_field("object"));
      if (like->type.kind != TypeKind::kTensor) {
        fail(DiagnosticKind::kTypeMismatch, like->range,
             fmt::format("`{}` is a tensor method", callee.child_by_field("attribute").text()));
      }
      const size_t count = kind.has_fill_arg ? 1 : args.positional.size();
      shape = lower_alloc_sizes(args, count, range);
      next = count;
      dtype = ir::Call::make(Intrinsic::kDtypeOf, {like}, Type::dtype_value(), range);
      break;
    }
  }
  if (kind.has_fill_arg) {
    fill = lower_expr(args.positional[next]);
    if (!fill->type.is_scalar()) {
      fail(DiagnosticKind::kTypeMismatch, fill->range, "the fill value must be a scalar");
    }
  } else if (kind.fill >= 0) {
    fill = ir::IntImm::make(kind.fill, range);
  }
  if (const SyntaxNode dtype_node = args.keyword("dtype")) dtype = lower_dtype_expr(dtype_node);

  const auto* imm = dtype->as<ir::DtypeImm>();
  Type type = Type::tensor(shape->type.rank, imm ? std::optional(imm->dtype) : std::nullopt);
  const int id =
      bind(std::string(target.text()), std::move(type), ir::Binding::Origin::kHost, target.range());
  if (shape->type.rank >= 0) kernel_.bindings[id].rank_evidence = shape->range;
  out.push_back(ir::Alloc::make(id, std::move(shape), std::move(dtype), std::move(fill), range));
}

}  // namespace helionc::frontend
