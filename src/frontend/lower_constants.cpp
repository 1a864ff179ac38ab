// Names a kernel reads from its module: constants in its code (`x * _SCALE`) and configs in its
// decorator (`config=CONFIG`). Python evaluates them when the kernel runs (after the module has
// run) or when it is decorated; helionc compiles them in as those values.
#include <fmt/format.h>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::TypeKind;

namespace {

// Whether a module-level value is an expression helionc can compile in as a constant: numbers,
// booleans, None, names, attributes (`torch.float16`, `math.pi`), arithmetic and calls of
// `math` functions on them. Anything else (tensors, containers, other calls) is not read.
bool constant_expression(const parse::SyntaxNode& node, const ImportTable& imports) {
  const std::string_view type = node.type();
  if (type == "integer" || type == "float" || type == "true" || type == "false" || type == "none" ||
      type == "identifier" || type == "attribute") {
    return true;
  }
  if (type == "call") {
    const auto name = imports.qualified_name(node.child_by_field("function"));
    if (!name || !name->starts_with("math.")) return false;
    for (const parse::SyntaxNode& arg : node.child_by_field("arguments").named_children()) {
      if (!constant_expression(arg, imports)) return false;
    }
    return true;
  }
  if (type == "unary_operator" || type == "binary_operator" || type == "parenthesized_expression") {
    for (const parse::SyntaxNode& child : node.named_children()) {
      if (!constant_expression(child, imports)) return false;
    }
    return true;
  }
  return false;
}

}  // namespace

ir::ExprPtr KernelLowering::lower_module_constant(const SyntaxNode& node) {
  // The body runs after the whole module; the decorator, and a constant's own value, are
  // evaluated where they stand.
  const SourceRange body = syntax_.function.child_by_field("body").range();
  const bool in_body = (node.range().begin >= body.begin && node.range().end <= body.end) ||
                       (!lambda_frames_.empty() && lambda_frames_.back().helper);
  const SyntaxNode value =
      constants_->lookup(node.text(), in_body ? ModuleConstants::kFromBody : node.range().begin);
  if (!value) return nullptr;
  if (!constant_expression(value, imports_)) {
    diags_
        .error(DiagnosticKind::kUnsupported, node.range(),
               fmt::format("reading the module-level `{}` in a kernel is not supported yet: "
                           "helionc compiles in module-level numbers, booleans, dtypes and None "
                           "(and arithmetic on them), not this value",
                           node.text()))
        .note(value.range(), fmt::format("`{}` is assigned here", node.text()));
    failed_ = true;
    throw LoweringAbort{};
  }
  if (++constant_depth_ > kMaxConstantDepth) {
    fail(DiagnosticKind::kLimitExceeded, node.range(),
         fmt::format("module-level constants nested more than {} deep", kMaxConstantDepth));
  }
  ir::ExprPtr lowered;
  try {
    lowered = lower_expr(value);
  } catch (const LoweringAbort&) {
    --constant_depth_;
    throw;
  }
  --constant_depth_;
  const TypeKind kind = lowered->type.kind;
  if (kind != TypeKind::kInt && kind != TypeKind::kFloat && kind != TypeKind::kBool &&
      kind != TypeKind::kDtype && kind != TypeKind::kNone) {
    diags_
        .error(DiagnosticKind::kUnsupported, node.range(),
               fmt::format("the module-level `{}` is a `{}`; a kernel can read module-level "
                           "numbers, booleans, dtypes and None (reading other values is not "
                           "supported yet)",
                           node.text(), ir::type_to_string(lowered->type)))
        .note(value.range(), fmt::format("`{}` is assigned here", node.text()));
    failed_ = true;
    throw LoweringAbort{};
  }
  return lowered;
}

SyntaxNode KernelLowering::resolve_module_name(const SyntaxNode& node) const {
  // `CONFIGS = [A, B]` read where the list stands: each name is the value assigned before it.
  SyntaxNode current = node;
  for (int depth = 0; current.type() == "identifier" && depth < kMaxConstantDepth; ++depth) {
    const SyntaxNode value = constants_->lookup(current.text(), current.range().begin);
    if (!value) return current;
    current = value;
  }
  return current;
}

}  // namespace helionc::frontend
