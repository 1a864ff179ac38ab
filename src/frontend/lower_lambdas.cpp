// Callable kernel parameters with a lambda default (`epilogue: Callable[...] = lambda acc,
// tile: acc`): helionc inlines the lambda where device code calls the parameter, with the
// lambda's parameters standing for the call's arguments. The parameter is not a parameter of
// the generated function (README, "Decisions").
//
// A default is evaluated where the function is defined, so a lambda body sees its own
// parameters and module-level names only, never the kernel's parameters or locals. Of module-
// level names helionc knows the imported modules (torch, hl, math); any other free name is
// reported.
#include <fmt/format.h>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::ExprPtr;
using ir::Type;

namespace {

bool is_callable_annotation(std::string_view text) {
  for (std::string_view prefix :
       {"Callable", "typing.Callable", "collections.abc.Callable", "t.Callable"}) {
    if (text.substr(0, prefix.size()) == prefix &&
        (text.size() == prefix.size() || text[prefix.size()] == '[')) {
      return true;
    }
  }
  return false;
}

// The parameters of a lambda (`lambda: 0` has none).
std::vector<SyntaxNode> lambda_parameters(const SyntaxNode& lambda) {
  const SyntaxNode params = lambda.child_by_field("parameters");
  if (!params) return {};
  return params.named_children();
}

}  // namespace

bool KernelLowering::lower_callable_param(const SyntaxNode& name, const SyntaxNode& annotation,
                                          const SyntaxNode& default_node) {
  const bool lambda_default = default_node && default_node.type() == "lambda";
  const bool callable = annotation && is_callable_annotation(annotation.text());
  if (!lambda_default && !callable) return false;
  if (!default_node) {
    lower_runtime_callable_param(name);
    return true;
  }
  if (!lambda_default) {
    fail(DiagnosticKind::kUnsupported, default_node ? default_node.range() : name.range(),
         fmt::format("the default of the callable parameter `{}` must be a lambda (`{} = "
                     "lambda acc, tile: acc`), which helionc compiles into the kernel, or none "
                     "(the callable is then passed at run time)",
                     name.text(), name.text()));
  }
  for (const SyntaxNode& param : lambda_parameters(default_node)) {
    if (param.type() != "identifier") {
      unsupported(param.range(), "a lambda parameter other than a plain name");
    }
  }
  const int id =
      bind(std::string(name.text()), Type::none(), ir::Binding::Origin::kParam, name.range());
  lambdas_.emplace(id, default_node);
  poisoned_[id] = fmt::format(
      "`{}` is a callable parameter: helionc inlines its lambda where it is called, so it can "
      "only be called (`{}(...)`)",
      name.text(), name.text());
  return true;
}

ExprPtr KernelLowering::inline_lambda(int id, const CallArgs& args) {
  const SyntaxNode lambda = lambdas_.at(id);
  const std::string& callable = binding(id).name;
  if (!in_device()) {
    unsupported(args.call.range(),
                fmt::format("calling `{}` in host code (outside `hl.tile` loops)", callable));
  }
  const std::vector<SyntaxNode> params = lambda_parameters(lambda);
  if (args.positional.size() > params.size()) {
    fail(DiagnosticKind::kWrongArity, args.call.range(),
         fmt::format("`{}` takes {} argument{} but {} were given", callable, params.size(),
                     params.size() == 1 ? "" : "s", args.positional.size()));
  }
  LambdaFrame frame{callable, args.call.range(), {}};
  // The arguments are evaluated where the call is, before the body.
  for (size_t i = 0; i < params.size(); ++i) {
    const std::string_view param = params[i].text();
    SyntaxNode arg = i < args.positional.size() ? args.positional[i] : args.keyword(param);
    if (!arg) {
      fail(DiagnosticKind::kWrongArity, args.call.range(),
           fmt::format("`{}` is called without its argument `{}`", callable, param));
    }
    frame.arguments.emplace(std::string(param), lower_expr(arg));
  }
  for (const auto& [key, value] : args.keywords) {
    if (!frame.arguments.count(key)) {
      fail(DiagnosticKind::kBadArgument, value.parent().range(),
           fmt::format("`{}` has no parameter `{}`", callable, key));
    }
  }
  lambda_frames_.push_back(std::move(frame));
  struct Pop {
    std::vector<LambdaFrame>& frames;
    ~Pop() { frames.pop_back(); }
  } pop{lambda_frames_};
  return lower_expr(lambda.child_by_field("body"));
}

ExprPtr KernelLowering::lambda_name(const SyntaxNode& identifier) {
  if (lambda_frames_.empty()) return nullptr;
  const LambdaFrame& frame = lambda_frames_.back();
  const std::string_view name = identifier.text();
  if (auto it = frame.arguments.find(name); it != frame.arguments.end()) return it->second;
  if (imports_.qualified_name(identifier)) return nullptr;  // a module: reported as one
  if (frame.helper) return helper_free_name(identifier, frame);
  Diagnostic& diag =
      scope_.count(name)
          ? diags_.error(DiagnosticKind::kUndefinedName, identifier.range(),
                         fmt::format("`{}` in the lambda default of `{}` is not the kernel's "
                                     "`{}`: a default is evaluated where the kernel is defined "
                                     "and sees only module-level names; give the lambda a "
                                     "parameter for it and pass it in the call",
                                     name, frame.callable, name))
          : diags_.error(DiagnosticKind::kUnsupported, identifier.range(),
                         fmt::format("the module-level name `{}` in the lambda default of `{}` "
                                     "is not supported yet",
                                     name, frame.callable));
  diag.note(frame.call, fmt::format("`{}` is inlined here", frame.callable));
  failed_ = true;
  throw LoweringAbort{};
}

void KernelLowering::check_lambda_callee(const SyntaxNode& callee) {
  if (lambda_frames_.empty()) return;
  const std::string_view name = callee.text();
  const LambdaFrame& frame = lambda_frames_.back();
  if (frame.arguments.count(name)) {
    unsupported(callee.range(),
                frame.helper ? "calling a helper's argument" : "calling a lambda's argument");
  }
  if (frame.helper && constants_->helper(name)) return;  // a helper calling a helper
  if (scope_.count(name)) lambda_name(callee);           // reports the free variable
}

}  // namespace helionc::frontend
