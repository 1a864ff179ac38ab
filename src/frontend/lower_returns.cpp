// `return`, and the module's contract for kernels that update their parameters in place.
//
// A Helion kernel may write into a tensor its caller passed (`x[tile] = x[tile] + y[tile]`,
// `-> None`); PyTorch's caller then sees the new values. JAX arrays are immutable, so the
// generated function returns the updated arrays instead: a kernel that returns nothing returns
// its updated parameters (one array, or a tuple of several in parameter order); a kernel that
// returns values returns a tuple of those values followed by the updated parameters it does
// not return already (a warning says so, as the caller's code must change). The launch aliases
// each updated parameter to its output, so under `jax.jit(..., donate_argnums=...)` the update
// reuses the caller's buffer.
#include <fmt/format.h>

#include <algorithm>

#include "frontend/kernel_lowering.h"
#include "ir/mutator.h"

namespace helionc::frontend {

using ir::TypeKind;

namespace {
// Holders of a parameter's contents that cannot be returned.
constexpr int kBranchesDisagree = -1;
constexpr int kShadowed = KernelLowering::kNoName;
}  // namespace

void KernelLowering::lower_return(const SyntaxNode& node, ir::Block& out) {
  if (in_device()) unsupported(node.range(), "`return` inside a device loop");
  std::vector<ir::ExprPtr> values;
  const auto children = node.named_children();
  bool tuple = false;
  if (!children.empty()) {
    const SyntaxNode& value = children.front();
    // `return out,` and `return (out,)` return a tuple of one tensor, not the tensor.
    tuple = value.type() == "expression_list" || value.type() == "tuple";
    if (tuple) {
      for (const SyntaxNode& element : value.named_children())
        values.push_back(lower_expr(element));
    } else {
      values.push_back(lower_expr(value));
    }
  }
  // Static values come back as they are (`return out, None, "done"`), a list or nested tuple
  // as a tuple of them (README "Parameters and returns").
  const auto returnable = [](const ir::Type& type, const auto& self) -> bool {
    if (type.kind == TypeKind::kTuple) {
      return std::all_of(type.elements.begin(), type.elements.end(),
                         [&](const ir::Type& element) { return self(element, self); });
    }
    return type.kind == TypeKind::kTensor || type.is_scalar() || type.kind == TypeKind::kNone ||
           type.kind == TypeKind::kString;
  };
  for (const ir::ExprPtr& value : values) {
    if (!returnable(value->type, returnable)) {
      fail(DiagnosticKind::kTypeMismatch, value->range,
           fmt::format(
               "a kernel can return tensors, scalars, strings, None and tuples of them, not `{}`",
               ir::type_to_string(value->type)));
    }
  }
  out.push_back(ir::Return::make(std::move(values), node.range(), tuple));
  return_contents_[out.back().get()] = param_contents_here();
}

std::map<int, int> KernelLowering::param_contents_here() const {
  std::map<int, int> here;
  for (const ir::Param& param : kernel_.params) {
    if (!holds_param_.count(param.binding)) continue;
    const auto holder = param_contents_.find(param.binding);
    int binding = holder == param_contents_.end() ? param.binding : holder->second;
    if (binding < 0) {
      here[param.binding] = binding;
      continue;
    }
    // Returned by its Python name, which a later binding would have taken over.
    const auto current = scope_.find(kernel_.bindings[binding].name);
    if (current != scope_.end() && current->second != binding) binding = kShadowed;
    here[param.binding] = binding;
  }
  return here;
}

void KernelLowering::merge_param_contents(const std::map<int, int>& then_contents,
                                          const std::map<int, int>& else_contents,
                                          const std::vector<ir::If::Merge>& merges) {
  for (const ir::Param& param : kernel_.params) {
    const auto lookup = [&](const std::map<int, int>& contents) {
      const auto it = contents.find(param.binding);
      return it == contents.end() ? param.binding : it->second;
    };
    const int a = lookup(then_contents);
    const int b = lookup(else_contents);
    if (a == b) {
      if (a != param.binding) param_contents_[param.binding] = a;
      continue;
    }
    param_contents_[param.binding] = kBranchesDisagree;
    for (const ir::If::Merge& merge : merges) {
      if (merge.then_value == a && merge.else_value == b) {
        param_contents_[param.binding] = merge.result;
        holds_param_[merge.result] = param.binding;
      }
    }
  }
}

void KernelLowering::note_param_write(int tensor, int rebound) {
  const auto param = holds_param_.find(tensor);
  if (param == holds_param_.end()) return;
  updated_params_.insert(param->second);
  const int holder = rebound == -1 ? tensor : rebound;
  if (holder >= 0) holds_param_[holder] = param->second;
  param_contents_[param->second] = holder;
}

void KernelLowering::note_same_array(int from, int to) {
  if (const auto param = holds_param_.find(from); param != holds_param_.end()) {
    holds_param_[to] = param->second;
  }
}

namespace {

// Appends to each Return the bindings that hold the updated parameters there.
class AppendUpdated final : public ir::Mutator {
 public:
  using Contents = std::map<int, int>;
  AppendUpdated(const ir::Kernel& kernel, const std::vector<int>& updated,
                const std::map<const ir::Stmt*, Contents>& contents,
                const std::map<int, int>& rebound_names, DiagnosticEngine& diags)
      : kernel_(kernel),
        updated_(updated),
        contents_(contents),
        rebound_names_(rebound_names),
        diags_(diags) {}

  bool failed = false;

  // The Return for the values `node` returns plus the updated parameters it lacks.
  ir::StmtPtr extended(const ir::Return& node, const Contents& contents) {
    std::vector<ir::ExprPtr> values = node.values;
    std::vector<std::string> appended;
    for (int param : updated_) {
      const ir::Binding& parameter = kernel_.bindings[param];
      const auto holder = contents.find(param);
      const int binding = holder == contents.end() ? param : holder->second;
      bool returned = false;
      for (const ir::ExprPtr& value : values) {
        const auto* ref = value->as<ir::VarRef>();
        returned |= ref != nullptr && ref->binding == binding;
      }
      if (returned) continue;
      if (binding < 0) {
        Diagnostic& error = diags_.error(
            DiagnosticKind::kUnsupported, range_of(node),
            binding == kShadowed
                ? fmt::format("the kernel updates `{}` in place and the generated function returns "
                              "it by that name, but the name is rebound before this return; "
                              "rebinding an updated parameter's name is not supported yet",
                              parameter.name)
                : fmt::format("the kernel updates `{}` in place on one branch of an `if` and "
                              "through another name on the other; returning it is not "
                              "supported yet",
                              parameter.name));
        if (const auto name = rebound_names_.find(param); name != rebound_names_.end()) {
          error.note(kernel_.bindings[name->second].range,
                     fmt::format("`{}` is rebound here", parameter.name));
        }
        failed = true;
        continue;
      }
      values.push_back(ir::VarRef::make(binding, kernel_.bindings[binding].type, node.range));
      appended.push_back(parameter.name);
    }
    if (appended.empty()) return nullptr;
    if (!node.values.empty() && !warned_) {
      warned_ = true;
      diags_.warning(
          DiagnosticKind::kInPlaceResult, node.range,
          fmt::format("kernel `{}` updates {} in place: JAX arrays are immutable, so the "
                      "generated function returns a tuple of the kernel's results followed by "
                      "the updated {}",
                      kernel_.name, fmt::format("`{}`", fmt::join(appended, "`, `")),
                      appended.size() == 1 ? "array" : "arrays"));
    }
    const bool tuple = node.tuple || !node.values.empty() || values.size() > 1;
    return ir::Return::make(std::move(values), node.range, tuple);
  }

 protected:
  SourceRange range_of(const ir::Return& node) const {
    return node.range.file ? node.range : kernel_.name_range;
  }

  ir::StmtPtr mutate_node(const ir::Return& node, const ir::StmtPtr& self) override {
    const auto contents = contents_.find(&node);
    ir::StmtPtr replaced =
        extended(node, contents == contents_.end() ? Contents{} : contents->second);
    return replaced ? replaced : self;
  }

 private:
  const ir::Kernel& kernel_;
  const std::vector<int>& updated_;
  const std::map<const ir::Stmt*, Contents>& contents_;
  const std::map<int, int>& rebound_names_;
  DiagnosticEngine& diags_;
  bool warned_ = false;
};

}  // namespace

void KernelLowering::return_updated_params() {
  std::vector<int> updated;
  for (const ir::Param& param : kernel_.params) {
    if (updated_params_.count(param.binding)) updated.push_back(param.binding);
  }
  if (updated.empty()) return;
  AppendUpdated append(kernel_, updated, return_contents_, rebound_names_, diags_);
  kernel_.body = append.mutate(kernel_.body);
  if (kernel_.body.empty() || kernel_.body.back()->kind != ir::StmtKind::kReturn) {
    // Falling off the end returns None in Python; here it returns the updated arrays. The
    // range is empty (no source line), so the module prints no source comment for it.
    const auto implicit = ir::Return::make({}, SourceRange{});
    if (ir::StmtPtr returned =
            append.extended(*implicit->as<ir::Return>(), param_contents_here())) {
      kernel_.body.push_back(std::move(returned));
    }
  }
  failed_ |= append.failed;
}

}  // namespace helionc::frontend
