// `print(...)` in a kernel. In host code the module calls Python's print (under `jax.jit` it
// prints while JAX traces, arrays as tracers); in device code `pl.debug_print`, which Mosaic lowers
// for scalars or one vector per call, after a text: each array argument becomes a line of its
// own, headed by the text before it (the `_print` helper of the module; see
// templates/helper_print.py.tmpl). The statement is a Let that binds no names, of an
// Intrinsic::kPrint call whose arguments are the printed values and texts in order.
//
// Deviation, documented in the README: a tile value prints its whole block, the padding of a
// partial block included, since the kernel holds the block and not only its live elements.
#include <fmt/format.h>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::ExprPtr;
using ir::Type;
using ir::TypeKind;

bool KernelLowering::is_builtin(const SyntaxNode& callee, std::string_view name) const {
  return callee.type() == "identifier" && callee.text() == name && !scope_.count(callee.text()) &&
         !imports_.qualified_name(callee) && !constants_->helper(name);
}

void KernelLowering::lower_print(const SyntaxNode& call, ir::Block& out) {
  const SourceRange range = call.range();
  const CallArgs args = split_args(call);
  if (!args.keywords.empty()) {
    const auto& [key, value] = args.keywords.front();
    unsupported(value.parent().range(),
                fmt::format("`print` with `{}=` (each printed line ends with a newline and its "
                            "values are separated by spaces)",
                            key));
  }
  if (args.positional.empty()) {
    // Helion refuses it too: a kernel's print prints values.
    fail(DiagnosticKind::kWrongArity, range, "`print()` in a kernel needs something to print");
  }
  std::vector<ExprPtr> parts;
  for (const SyntaxNode& arg : args.positional) {
    ExprPtr value = lower_expr(arg);
    switch (value->type.kind) {
      case TypeKind::kInt:
      case TypeKind::kFloat:
      case TypeKind::kBool:
      case TypeKind::kString:
      case TypeKind::kTensor:
      case TypeKind::kTileTensor:
        break;
      default:
        fail(DiagnosticKind::kTypeMismatch, arg.range(),
             fmt::format("`print` takes numbers, strings, tensors and tile values, not `{}`",
                         ir::type_to_string(value->type)));
    }
    parts.push_back(std::move(value));
  }
  ExprPtr printed = ir::Call::make(ir::Intrinsic::kPrint, std::move(parts), Type::tuple({}), range);
  out.push_back(ir::Let::make_unpack({}, std::move(printed), range));
}

}  // namespace helionc::frontend
