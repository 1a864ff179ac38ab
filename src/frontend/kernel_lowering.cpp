#include "frontend/kernel_lowering.h"

#include <fmt/format.h>

#include <cctype>
#include <map>
#include <optional>

#include "frontend/hoist_callables.h"
#include "ir/verifier.h"
#include "ir/visitor.h"
#include "support/docstring.h"

namespace helionc::frontend {

namespace {

// Whether a tile loop sits among the statements (top level, or under a host `if`).
bool has_device_loop(const ir::Block& block) {
  for (const ir::StmtPtr& stmt : block) {
    if (stmt->kind == ir::StmtKind::kTileLoop) return true;
    if (const auto* branch = stmt->as<ir::If>();
        branch && (has_device_loop(branch->then_body) || has_device_loop(branch->else_body))) {
      return true;
    }
  }
  return false;
}

// Whether a `return` with a value is among the statements, at any depth (not in a nested
// `def`, `class` or `lambda`, whose returns are their own).
bool returns_a_value(const SyntaxNode& node) {
  for (const SyntaxNode& child : node.named_children()) {
    const std::string_view type = child.type();
    if (type == "return_statement" && !child.named_children().empty()) return true;
    if (type == "function_definition" || type == "class_definition" ||
        type == "decorated_definition" || type == "lambda") {
      continue;
    }
    if (returns_a_value(child)) return true;
  }
  return false;
}

}  // namespace

using ir::Binding;
using ir::Type;
using ir::TypeKind;

SyntaxNode CallArgs::keyword(std::string_view name) const {
  for (const auto& [key, value] : keywords) {
    if (key == name) return value;
  }
  return {};
}

KernelLowering::KernelLowering(const KernelSyntax& syntax, const ImportTable& imports,
                               const ModuleConstants& constants, DiagnosticEngine& diags)
    : syntax_(syntax),
      imports_(imports),
      constants_(&constants),
      diags_(diags),
      file_(*syntax.function.range().file) {}

std::optional<ir::Kernel> KernelLowering::run() {
  const SyntaxNode name = syntax_.function.child_by_field("name");
  kernel_.name = std::string(name.text());
  kernel_.name_range = name.range();
  kernel_.range = syntax_.function.range();
  try {
    lower_decorator();
    lower_params();
    check_declared_return();
    read_docstring();
  } catch (const LoweringAbort&) {
    return std::nullopt;
  }
  kernel_.body = lower_block(syntax_.function.child_by_field("body"));
  drop_unread_block_values();
  finish_items();
  check_builtin_tunable_keys();
  if (failed_) return std::nullopt;
  if (!has_device_loop(kernel_.body)) {
    // Helion refuses such a kernel (NoDeviceLoopsInKernel) as it has nothing to launch; its
    // host code is still a well-defined function of the arguments, so the module runs it as
    // jnp with no `pallas_call`, and the warning keeps the kernel from passing for portable.
    diags_.warning(DiagnosticKind::kMissingDeviceLoop, kernel_.name_range,
                   fmt::format("kernel `{}` has no `hl.tile` or `hl.grid` loop: Helion refuses "
                               "it (NoDeviceLoopsInKernel); the module runs its host code as "
                               "jnp, with no `pallas_call`",
                               kernel_.name));
  }
  resolve_shape_splats();
  if (failed_) return std::nullopt;
  return_updated_params();
  if (failed_) return std::nullopt;
  hoist_callable_stores(kernel_);
  for (const std::string& problem : ir::verify_kernel(kernel_)) {
    diags_.error(DiagnosticKind::kInternal, kernel_.name_range,
                 "internal error: the frontend produced invalid IR: " + problem);
    failed_ = true;
  }
  if (failed_) return std::nullopt;
  return std::move(kernel_);
}

void KernelLowering::read_docstring() {
  // A docstring is a plain string literal as the body's first statement (an f-string or a bytes
  // literal is not one, in Python either).
  const std::vector<SyntaxNode> statements =
      syntax_.function.child_by_field("body").named_children();
  if (statements.empty() || statements.front().type() != "expression_statement") return;
  const std::vector<SyntaxNode> parts = statements.front().named_children();
  if (parts.size() != 1 || parts.front().type() != "string") return;
  std::string_view text = parts.front().text();
  size_t prefix = 0;
  while (prefix < text.size() && std::isalpha(static_cast<unsigned char>(text[prefix]))) {
    const char letter = static_cast<char>(std::tolower(static_cast<unsigned char>(text[prefix])));
    if (letter == 'f' || letter == 'b') return;
    ++prefix;
  }
  text.remove_prefix(prefix);
  const bool triple = text.starts_with(R"(""")") || text.starts_with("'''");
  const size_t quotes = triple ? 3 : 1;
  if (text.size() < 2 * quotes) return;
  kernel_.doc = clean_docstring(text.substr(quotes, text.size() - 2 * quotes));
}

void KernelLowering::check_declared_return() {
  // `-> torch.Tensor` on a kernel that never returns: Python returns None, which is not what
  // the annotation promises and not what the caller expects. Helion would only fail later, at
  // the caller's first use of the result; here it is an error at the annotation.
  const SyntaxNode declared = syntax_.function.child_by_field("return_type");
  if (!declared || declared.text() == "None" ||
      returns_a_value(syntax_.function.child_by_field("body"))) {
    return;
  }
  fail(DiagnosticKind::kTypeMismatch, declared.range(),
       fmt::format("kernel `{}` is declared to return `{}` but has no `return` with a value; "
                   "return the result, or declare `-> None` for a kernel that only updates "
                   "its arguments",
                   kernel_.name, declared.text()));
}

void KernelLowering::lower_decorator() {
  if (syntax_.decorator.type() != "call") return;
  for (const SyntaxNode& arg : syntax_.decorator.child_by_field("arguments").named_children()) {
    if (arg.type() != "keyword_argument") {
      diags_.warning(DiagnosticKind::kIgnoredKeyword, arg.range(),
                     "positional arguments of the kernel decorator are ignored");
      continue;
    }
    const std::string key(arg.child_by_field("name").text());
    const SyntaxNode value = arg.child_by_field("value");
    // Configs may be given by the name of a module-level value (`config=CONFIG`).
    if (key == "config") {
      const SyntaxNode config = resolve_config_name(resolve_module_name(value));
      if (config.type() == "none") continue;  // `config=None`: none
      kernel_.builtin_configs.push_back(lower_builtin_config(config));
      continue;
    }
    if (key == "configs") {
      const SyntaxNode list = resolve_config_name(resolve_module_name(value));
      if (list.type() == "none") continue;  // `configs=None`: none
      if (list.type() == "identifier") not_a_module_config(list, "a list of `helion.Config(...)`");
      if (list.type() != "list" && list.type() != "tuple") {
        fail(DiagnosticKind::kBadArgument, value.range(),
             "`configs=` takes a list of `helion.Config(...)`");
      }
      for (const SyntaxNode& entry : list.named_children()) {
        kernel_.builtin_configs.push_back(lower_builtin_config(resolve_module_name(entry)));
      }
      continue;
    }
    kernel_.ignored_decorator_keywords.push_back(key);
    diags_.remark(arg.range(), fmt::format("decorator keyword `{}` has no meaning for Pallas "
                                           "and is ignored",
                                           key));
  }
}

namespace {

// The parameter kinds helionc understands from annotations.
std::optional<Type> type_from_annotation(std::string_view text) {
  std::string compact;
  for (char c : text) {
    if (c != ' ') compact += c;
  }
  if (compact == "torch.Tensor" || compact == "Tensor") return Type::tensor(-1);
  if (compact == "torch.Tensor|None" || compact == "None|torch.Tensor" ||
      compact == "Optional[torch.Tensor]" || compact == "typing.Optional[torch.Tensor]" ||
      compact == "Tensor|None" || compact == "Optional[Tensor]") {
    Type type = Type::tensor(-1);
    type.optional = true;
    return type;
  }
  if (compact == "list[int]" || compact == "List[int]" || compact == "tuple[int,...]" ||
      compact == "Tuple[int,...]" || compact == "Sequence[int]") {
    return Type::shape(-1);
  }
  // `tuple[int, int]`: a static tuple of that many ints.
  if (compact.starts_with("tuple[") && compact.ends_with("]")) {
    const std::string_view inner = std::string_view(compact).substr(6, compact.size() - 7);
    int count = 0;
    for (size_t begin = 0;; ++count) {
      const size_t comma = inner.find(',', begin);
      if (inner.substr(begin, comma - begin) != "int") return std::nullopt;
      if (comma == std::string_view::npos) break;
      begin = comma + 1;
    }
    return Type::shape(count + 1);
  }
  // Static values of the trace, as numbers are (README "Parameters"): a dtype (`jnp.float32`),
  // a string, a device the module ignores.
  if (compact == "torch.dtype") return Type::dtype_value();
  if (compact == "torch.device") return Type::scalar(TypeKind::kDevice);
  if (compact == "str") return Type::scalar(TypeKind::kString);
  if (text == "float") return Type::scalar(TypeKind::kFloat);
  if (text == "int") return Type::scalar(TypeKind::kInt);
  if (text == "bool") return Type::scalar(TypeKind::kBool);
  return std::nullopt;
}

}  // namespace

void KernelLowering::lower_params() {
  // What CPython refuses in a signature: a name given twice, a default before a parameter
  // without one.
  std::map<std::string_view, SourceRange> seen;
  SourceRange last_default;
  for (const SyntaxNode& param : syntax_.function.child_by_field("parameters").named_children()) {
    const std::string_view kind = param.type();
    SyntaxNode name_node;
    SyntaxNode annotation;
    SyntaxNode default_node;
    if (kind == "identifier") {
      name_node = param;
    } else if (kind == "typed_parameter") {
      name_node = param.named_children().front();
      annotation = param.child_by_field("type");
    } else if (kind == "default_parameter" || kind == "typed_default_parameter") {
      name_node = param.child_by_field("name");
      annotation = param.child_by_field("type");
      default_node = param.child_by_field("value");
    } else {
      unsupported(param.range(), "this kind of kernel parameter");
    }
    if (name_node.type() != "identifier")
      unsupported(param.range(), "this kind of kernel parameter");
    if (auto [first, inserted] = seen.emplace(name_node.text(), name_node.range()); !inserted) {
      diags_
          .error(DiagnosticKind::kSyntaxError, name_node.range(),
                 fmt::format("duplicate parameter `{}`", name_node.text()))
          .note(first->second, "the first one is here");
      failed_ = true;
    }
    if (default_node) {
      last_default = default_node.range();
    } else if (last_default.valid()) {
      diags_
          .error(DiagnosticKind::kSyntaxError, name_node.range(),
                 fmt::format("parameter `{}` without a default follows one with a default",
                             name_node.text()))
          .note(last_default, "the default is here");
      failed_ = true;
    }
    if (lower_callable_param(name_node, annotation, default_node)) continue;
    if (!default_node && lower_pack_param(name_node, annotation)) continue;

    ir::ExprPtr default_value;
    if (default_node) default_value = lower_expr(default_node);
    std::optional<Type> type;
    // `hl.constexpr` is an attribute chain inside the `type` node.
    std::optional<std::string> annotation_name;
    if (annotation && !annotation.named_children().empty()) {
      annotation_name = imports_.qualified_name(annotation.named_children().front());
    }
    if (annotation_name == "helion.language.constexpr") {
      // A static value of the trace: its kind comes from the default (an int without one).
      type = default_value && default_value->type.is_scalar() ? default_value->type
                                                              : Type::scalar(TypeKind::kInt);
    } else if (annotation) {
      type = type_from_annotation(annotation.text());
      if (!type) {
        fail(DiagnosticKind::kUnsupported, annotation.range(),
             fmt::format("parameter type `{}` is not supported; use `torch.Tensor`, "
                         "`torch.Tensor | None`, `int`, `float`, `bool`, `str`, `list[int]`, "
                         "`torch.dtype`, `torch.device` or `hl.constexpr`",
                         annotation.text()));
      }
      // An int default may stand for a float (`eps: float = 1`), nothing else converts.
      const bool fits =
          default_value && default_value->type.is_scalar() &&
          (default_value->type.kind == type->kind ||
           (type->kind == TypeKind::kFloat && default_value->type.kind == TypeKind::kInt));
      if (default_value && type->optional && default_value->type.kind != TypeKind::kNone) {
        fail(DiagnosticKind::kTypeMismatch, default_node.range(),
             "an optional tensor parameter can only default to `None`");
      }
      if (default_value && type->kind == TypeKind::kTensor && !type->optional) {
        fail(DiagnosticKind::kTypeMismatch, default_node.range(),
             fmt::format("a tensor parameter has no default; declare `{}: torch.Tensor | None = "
                         "None` for an optional one",
                         name_node.text()));
      }
      if (default_value && type->is_scalar() && !fits) {
        fail(DiagnosticKind::kTypeMismatch, default_node.range(),
             fmt::format("`{}` is declared `{}` but its default `{}` is of type `{}`",
                         name_node.text(), annotation.text(), default_node.text(),
                         ir::type_to_string(default_value->type)));
      }
    } else if (default_value && default_value->type.is_scalar()) {
      type = default_value->type;
    } else {
      // Unannotated, no default: Helion kernels take tensors.
      type = Type::tensor(-1);
    }
    const int id =
        bind(std::string(name_node.text()), *type, Binding::Origin::kParam, name_node.range());
    kernel_.params.push_back({id, default_value});
    if (type->kind == TypeKind::kTensor) holds_param_[id] = id;
  }
}

int KernelLowering::bind(std::string name, Type type, Binding::Origin origin, SourceRange range) {
  const int id = static_cast<int>(kernel_.bindings.size());
  known_dicts_.erase(name);  // the name no longer names a dict of constant keys
  scope_[name] = id;
  kernel_.bindings.push_back({std::move(name), std::move(type), origin, range});
  return id;
}

int KernelLowering::bind_hidden(std::string name, Type type, Binding::Origin origin,
                                SourceRange range) {
  const int id = static_cast<int>(kernel_.bindings.size());
  kernel_.bindings.push_back({std::move(name), std::move(type), origin, range});
  return id;
}

ir::ExprPtr KernelLowering::ref(int id, SourceRange range) const {
  return ir::VarRef::make(id, kernel_.bindings[id].type, range);
}

void KernelLowering::refine_rank(int id, int rank, SourceRange evidence) {
  Type& type = kernel_.bindings[id].type;
  if (type.kind != TypeKind::kTensor) return;
  if (type.rank < 0) {
    type.rank = rank;
    type.variadic = false;
    kernel_.bindings[id].rank_evidence = evidence;
    return;
  }
  if (type.rank == rank) return;
  Diagnostic& diag = diags_.error(
      DiagnosticKind::kRankMismatch, evidence,
      fmt::format("`{}` has {} dimension{} but is used here with {}", kernel_.bindings[id].name,
                  type.rank, type.rank == 1 ? "" : "s", rank));
  if (const SourceRange& fixed = kernel_.bindings[id].rank_evidence; fixed.valid()) {
    diag.note(fixed, fmt::format("the rank of `{}` was fixed here", kernel_.bindings[id].name));
  }
  failed_ = true;
  throw LoweringAbort{};
}

void KernelLowering::fail(DiagnosticKind kind, SourceRange range, std::string message) {
  diags_.error(kind, range, std::move(message));
  failed_ = true;
  throw LoweringAbort{};
}

void KernelLowering::unsupported(SourceRange range, std::string what) {
  fail(DiagnosticKind::kUnsupported, range, fmt::format("{} is not supported yet", what));
}

}  // namespace helionc::frontend
