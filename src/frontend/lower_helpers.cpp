// Calls of helper functions of the kernel's file: `def _scaled(v): return v * SCALE` at the top
// level, or in the function around a nested kernel, called as `_scaled(x[tile])`. helionc
// inlines the helper where the kernel calls it, its parameters standing for the call's
// arguments (evaluated first, where the call is), as Python would run it: the body sees its
// parameters, its own locals and the names of the scopes it is defined in (module constants),
// never the kernel's locals. A helper is inlined when its body is assignments to names and one
// final `return` (a docstring allowed); any other statement, and recursion, are reported at the
// helper's statement with a note at the call.
#include <fmt/format.h>

#include <algorithm>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::ExprPtr;

namespace {

// A helper parameter's name and default (null when it has none); a null name for the kinds
// helionc does not inline (`*args`, `**kwargs`, `/`, `*`).
std::pair<SyntaxNode, SyntaxNode> parameter(const SyntaxNode& param) {
  const std::string_view kind = param.type();
  if (kind == "identifier") return {param, {}};
  if (kind == "typed_parameter") {
    const SyntaxNode name = param.named_children().front();
    return {name.type() == "identifier" ? name : SyntaxNode{}, {}};
  }
  if (kind == "default_parameter" || kind == "typed_default_parameter") {
    return {param.child_by_field("name"), param.child_by_field("value")};
  }
  return {};
}

bool is_docstring(const SyntaxNode& stmt) {
  if (stmt.type() != "expression_statement" || stmt.named_children().size() != 1) return false;
  const std::string_view type = stmt.named_children()[0].type();
  return type == "string" || type == "concatenated_string";
}

}  // namespace

void KernelLowering::helper_unsupported(const SyntaxNode& where, std::string what,
                                        const LambdaFrame& frame) {
  diags_.error(DiagnosticKind::kUnsupported, where.range(),
               fmt::format("{} in the helper `{}` is not supported yet: helionc inlines helpers "
                           "whose body assigns names and ends in one `return`",
                           what, frame.callable));
  failed_ = true;
  throw LoweringAbort{};
}

ExprPtr KernelLowering::helper_free_name(const SyntaxNode& identifier, const LambdaFrame& frame) {
  if (ExprPtr constant = lower_module_constant(identifier)) return constant;
  const std::string_view name = identifier.text();
  if (scope_.count(name)) {
    fail(DiagnosticKind::kUndefinedName, identifier.range(),
         fmt::format("`{}` in the helper `{}` is not the kernel's `{}`: a function sees only its "
                     "parameters, its locals and the names around its `def`; pass it as an "
                     "argument",
                     name, frame.callable, name));
  }
  fail(DiagnosticKind::kUndefinedName, identifier.range(),
       fmt::format("undefined name `{}` in the helper `{}`", name, frame.callable));
}

ExprPtr KernelLowering::lower_helper_call(std::string_view name, const CallArgs& args) {
  const std::optional<ModuleConstants::Helper> helper = constants_->helper(name);
  if (!helper) return nullptr;
  const SyntaxNode function = helper->function;
  const std::string callable(name);
  for (const LambdaFrame& outer : lambda_frames_) {
    if (outer.helper && outer.helper.range().begin == function.range().begin) {
      diags_
          .error(DiagnosticKind::kUnsupported, args.call.range(),
                 fmt::format("the helper `{}` calls itself: helionc inlines helpers, so a "
                             "recursive one cannot be compiled",
                             callable))
          .note(function.child_by_field("name").range(),
                fmt::format("`{}` is defined here", callable));
      failed_ = true;
      throw LoweringAbort{};
    }
  }
  LambdaFrame frame{callable, args.call.range(), {}, function};
  std::vector<std::pair<SyntaxNode, SyntaxNode>> params;
  for (const SyntaxNode& param : function.child_by_field("parameters").named_children()) {
    params.push_back(parameter(param));
    if (!params.back().first) {
      diags_
          .error(DiagnosticKind::kUnsupported, param.range(),
                 fmt::format("this kind of parameter of the helper `{}` is not supported yet: "
                             "helionc inlines helpers with plain parameters (`x`, `x: int`, "
                             "`x=1`)",
                             callable))
          .note(args.call.range(), fmt::format("`{}` is inlined here", callable));
      failed_ = true;
      throw LoweringAbort{};
    }
  }
  if (args.positional.size() > params.size()) {
    fail(DiagnosticKind::kWrongArity, args.call.range(),
         fmt::format("`{}` takes {} argument{} but {} were given", callable, params.size(),
                     params.size() == 1 ? "" : "s", args.positional.size()));
  }
  for (const auto& keyword : args.keywords) {
    const bool known = std::any_of(params.begin(), params.end(), [&](const auto& param) {
      return param.first.text() == keyword.first;
    });
    if (!known) {
      fail(DiagnosticKind::kBadArgument, keyword.second.parent().range(),
           fmt::format("`{}` has no parameter `{}`", callable, keyword.first));
    }
  }
  // Every error inside the helper's body also points at the call.
  const size_t first_diagnostic = diags_.diagnostics().size();
  try {
    return inline_helper(function, *helper->scope, std::move(frame), params, args);
  } catch (const LoweringAbort&) {
    const SourceRange defined = function.range();
    for (size_t i = first_diagnostic; i < diags_.diagnostics().size(); ++i) {
      Diagnostic& diag = diags_.recorded(i);
      if (diag.range.file == defined.file && diag.range.begin >= defined.begin &&
          diag.range.end <= defined.end) {
        diag.note(args.call.range(), fmt::format("`{}` is inlined here", callable));
      }
    }
    throw;
  }
}

ExprPtr KernelLowering::inline_helper(const SyntaxNode& function, const ModuleConstants& scope,
                                      LambdaFrame frame,
                                      const std::vector<std::pair<SyntaxNode, SyntaxNode>>& params,
                                      const CallArgs& args) {
  const std::string callable = frame.callable;
  // The arguments are evaluated where the call is; defaults where the helper is defined.
  const ModuleConstants* kernel_scope = constants_;
  struct Restore {
    const ModuleConstants*& slot;
    const ModuleConstants* saved;
    ~Restore() { slot = saved; }
  } restore{constants_, kernel_scope};
  for (size_t i = 0; i < params.size(); ++i) {
    const auto& [param, default_value] = params[i];
    const SyntaxNode arg =
        i < args.positional.size() ? args.positional[i] : args.keyword(param.text());
    if (arg) {
      constants_ = kernel_scope;
      frame.arguments.emplace(std::string(param.text()), lower_expr(arg));
      continue;
    }
    if (!default_value) {
      fail(DiagnosticKind::kWrongArity, args.call.range(),
           fmt::format("`{}` is called without its argument `{}`", callable, param.text()));
    }
    constants_ = &scope;
    lambda_frames_.push_back({callable, args.call.range(), {}, function});
    struct Pop {
      std::vector<LambdaFrame>& frames;
      ~Pop() { frames.pop_back(); }
    } pop_default{lambda_frames_};
    frame.arguments.emplace(std::string(param.text()), lower_expr(default_value));
  }
  constants_ = &scope;
  lambda_frames_.push_back(std::move(frame));
  struct Pop {
    std::vector<LambdaFrame>& frames;
    ~Pop() { frames.pop_back(); }
  } pop{lambda_frames_};
  const LambdaFrame& body_frame = lambda_frames_.back();

  const std::vector<SyntaxNode> body = function.child_by_field("body").named_children();
  for (size_t i = 0; i < body.size(); ++i) {
    const SyntaxNode& stmt = body[i];
    if (is_docstring(stmt) || stmt.type() == "pass_statement") continue;
    if (stmt.type() == "return_statement") {
      if (i + 1 != body.size())
        helper_unsupported(body[i + 1], "a statement after `return`", body_frame);
      if (stmt.named_children().empty())
        helper_unsupported(stmt, "a `return` without a value", body_frame);
      return lower_expr(stmt.named_children()[0]);
    }
    const SyntaxNode inner =
        stmt.type() == "expression_statement" && stmt.named_children().size() == 1
            ? stmt.named_children()[0]
            : SyntaxNode();
    if (!inner || inner.type() != "assignment" || inner.child_by_field("type") ||
        inner.child_by_field("left").type() != "identifier" || !inner.child_by_field("right") ||
        inner.child_by_field("right").type() == "assignment") {
      const std::string_view type = stmt.type();
      const std::string_view keyword = type.substr(0, type.rfind("_statement"));
      helper_unsupported(stmt, inner ? "this statement" : fmt::format("`{}`", keyword), body_frame);
    }
    ExprPtr value = lower_expr(inner.child_by_field("right"));
    lambda_frames_.back().arguments.insert_or_assign(
        std::string(inner.child_by_field("left").text()), std::move(value));
  }
  helper_unsupported(function.child_by_field("name"), "a body without a final `return`",
                     body_frame);
}

}  // namespace helionc::frontend
