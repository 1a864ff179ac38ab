// Bounded slices of a tensor in device code: `x[tile, 16:]`, `dst[:32, tile]`, `out[tile, :n]`.
// The bounds must be host ints, so the sliced block's shape is known when JAX traces the
// kernel (Mosaic needs static block shapes); a step is refused (a TPU block is a contiguous
// window). The bounds go to Kernel::slices, which the index entry and the value's dimension
// both name, so the slice's size has one definition.
#include <fmt/format.h>

#include "frontend/kernel_lowering.h"
#include "ir/visitor.h"

namespace helionc::frontend {

using ir::ExprPtr;
using ir::TypeKind;

namespace {

// Whether `expr` reads anything only device code has (a loop variable, a value computed in
// the kernel, a tile attribute, an element of a tensor).
bool reads_device_values(const ir::Kernel& kernel, const ExprPtr& expr) {
  if (ir::reads_kernel_values(kernel, expr)) return true;
  bool loads = false;
  ir::for_each_expr(ir::Block{ir::Return::make({expr}, expr->range)},
                    [&](const ir::Expr& e) { loads = loads || e.kind == ir::ExprKind::kLoad; });
  return loads;
}

bool is_int_literal(const ExprPtr& expr, int64_t value) {
  const auto* imm = expr ? expr->as<ir::IntImm>() : nullptr;
  return imm != nullptr && imm->value == value;
}

}  // namespace

bool KernelLowering::is_slice_call(const SyntaxNode& item) const {
  if (item.type() != "call") return false;
  const SyntaxNode callee = item.child_by_field("function");
  return callee.type() == "identifier" && callee.text() == "slice" &&
         scope_.find("slice") == scope_.end();  // the builtin, not a local of that name
}

SliceParts KernelLowering::slice_parts(const SyntaxNode& slice) {
  SliceParts parts;
  int colons = 0;
  for (const SyntaxNode& child : slice.children()) {
    if (child.text() == ":") {
      ++colons;
    } else if (colons < 3 && child.is_named() && child.type() != "comment") {
      parts[static_cast<size_t>(colons)] = child;
    }
  }
  return parts;
}

ir::IndexItem KernelLowering::lower_tensor_slice(int tensor, int axis, const SyntaxNode& slice) {
  ir::IndexItem entry;
  entry.range = slice.range();
  entry.kind = ir::IndexItem::Kind::kFull;
  SliceParts parts;  // start, stop, step; each optional
  if (slice.type() == "call") {
    // `slice(stop)`, `slice(start, stop[, step])`, as in `hl.load(x, [tile, slice(None)])`.
    const CallArgs args = split_args(slice);
    check_arity(args, "slice", 1, 3, {});
    const size_t count = args.positional.size();
    for (size_t i = 0; i < count; ++i) parts[count == 1 ? 1 : i] = args.positional[i];
  } else {
    parts = slice_parts(slice);
  }
  ExprPtr bounds[3];
  for (int part = 0; part < 3; ++part) {
    if (!parts[part]) continue;
    ExprPtr value = lower_expr(parts[part]);
    if (value->as<ir::NoneImm>() != nullptr) continue;  // `x[None:n]` is `x[:n]`
    if (value->type.kind == TypeKind::kTileTensor || reads_device_values(kernel_, value)) {
      fail(DiagnosticKind::kUnsupported, parts[part].range(),
           fmt::format("a slice bound computed in the kernel (`{}`) is not supported yet: the "
                       "block's shape must be known when JAX traces the kernel; index with a "
                       "tile of `hl.tile(begin, end)` instead",
                       parts[part].text()));
    }
    if (value->type.kind != TypeKind::kInt) {
      fail(DiagnosticKind::kTypeMismatch, parts[part].range(),
           fmt::format("a slice bound must be an integer, not `{}`",
                       ir::type_to_string(value->type)));
    }
    bounds[part] = std::move(value);
  }
  if (bounds[2] && !is_int_literal(bounds[2], 1)) {
    fail(DiagnosticKind::kUnsupported, slice.range(),
         fmt::format("a slice of `{}` with a step is not supported yet: a TPU block is a "
                     "contiguous window; take the strided elements apart on the host, before "
                     "the kernel",
                     binding(tensor).name));
  }
  // `x[0:]` and `x[:]` are the whole axis.
  if (!bounds[1] && (!bounds[0] || is_int_literal(bounds[0], 0))) return entry;
  entry.kind = ir::IndexItem::Kind::kSlice;
  entry.slice = static_cast<int>(kernel_.slices.size());
  kernel_.slices.push_back({tensor, axis, bounds[0], bounds[1], slice.range()});
  return entry;
}

}  // namespace helionc::frontend
