#include "frontend/module_constants.h"

#include <algorithm>

namespace helionc::frontend {

namespace {

// The names a target binds (`a`, `a, b`, `(a, [b, c])`, `*rest`).
void target_names(const parse::SyntaxNode& target, std::vector<std::string>& names) {
  if (target.type() == "identifier") {
    names.emplace_back(target.text());
    return;
  }
  if (target.type() == "attribute" || target.type() == "subscript") return;  // binds no name
  for (const parse::SyntaxNode& child : target.named_children()) target_names(child, names);
}

// Every name bound anywhere inside `node` (the bodies of `if`, `for`, `with`, `try`).
void names_bound_inside(const parse::SyntaxNode& node, std::vector<std::string>& names) {
  const std::string_view type = node.type();
  if (type == "assignment" || type == "augmented_assignment" || type == "for_statement") {
    target_names(node.child_by_field("left"), names);
  } else if (type == "as_pattern_target") {  // `with ... as x`, `except E as x`
    target_names(node, names);
    return;
  } else if (type == "named_expression") {  // `(x := ...)`
    names.emplace_back(node.child_by_field("name").text());
  } else if (type == "global_statement" || type == "nonlocal_statement") {
    for (const parse::SyntaxNode& name : node.named_children()) names.emplace_back(name.text());
    return;
  } else if (type == "function_definition" || type == "class_definition") {
    names.emplace_back(node.child_by_field("name").text());
    return;  // their bodies are scopes of their own
  } else if (type == "lambda" || type == "list_comprehension" || type == "set_comprehension" ||
             type == "dictionary_comprehension" || type == "generator_expression") {
    return;  // so are these
  }
  for (const parse::SyntaxNode& child : node.named_children()) names_bound_inside(child, names);
}

// The names a function's parameters bind (`x`, `x: int`, `x=1`, `*args`, `**kwargs`).
void parameter_names(const parse::SyntaxNode& function, std::vector<std::string>& names) {
  for (const parse::SyntaxNode& param : function.child_by_field("parameters").named_children()) {
    parse::SyntaxNode name = param;
    while (name && name.type() != "identifier") {
      const parse::SyntaxNode by_field = name.child_by_field("name");
      name = by_field ? by_field
                      : (name.named_children().empty() ? parse::SyntaxNode{}
                                                       : name.named_children().front());
    }
    if (name) names.emplace_back(name.text());
  }
}

// The value of a plain assignment `name = value` (no annotation, no chain), or null.
parse::SyntaxNode plain_assignment(const parse::SyntaxNode& stmt) {
  const parse::SyntaxNode inner =
      stmt.type() == "expression_statement" ? stmt.named_children().front() : stmt;
  if (inner.type() != "assignment" || inner.child_by_field("type") ||
      !inner.child_by_field("right") || inner.child_by_field("right").type() == "assignment" ||
      inner.child_by_field("left").type() != "identifier") {
    return {};
  }
  return inner;
}

// The plain assignments in the branches of an `if` (nested `if`s included), and the names
// anything else there binds (conditions with `:=`, loops, imports ...).
void if_assignments(const parse::SyntaxNode& node,
                    std::map<std::string, std::vector<parse::SyntaxNode>, std::less<>>& assigned,
                    std::vector<std::string>& other) {
  for (const parse::SyntaxNode& child : node.named_children()) {
    const std::string_view type = child.type();
    if (const parse::SyntaxNode assignment = plain_assignment(child)) {
      assigned[std::string(assignment.child_by_field("left").text())].push_back(assignment);
    } else if (type == "block" || type == "if_statement" || type == "elif_clause" ||
               type == "else_clause") {
      if_assignments(child, assigned, other);
    } else {
      names_bound_inside(child, other);
    }
  }
}

}  // namespace

void ModuleConstants::Scope::add_statement(const parse::SyntaxNode& stmt) {
  std::vector<std::string> other;
  const parse::SyntaxNode inner =
      stmt.type() == "expression_statement" ? stmt.named_children().front() : stmt;
  if (inner.type() == "assignment" && !inner.child_by_field("type") &&
      inner.child_by_field("right") && inner.child_by_field("right").type() != "assignment") {
    const parse::SyntaxNode target = inner.child_by_field("left");
    if (target.type() == "identifier") {
      assignments[std::string(target.text())].push_back(inner.child_by_field("right"));
      return;
    }
  }
  if (stmt.type() == "function_definition") {
    functions[std::string(stmt.child_by_field("name").text())].push_back(stmt);
    return;
  }
  if (stmt.type() == "import_statement" || stmt.type() == "import_from_statement") {
    for (const parse::SyntaxNode& name : stmt.children_by_field("name")) {
      const parse::SyntaxNode local =
          name.type() == "aliased_import" ? name.child_by_field("alias") : name;
      const std::string_view text = local.text();
      other.emplace_back(text.substr(0, text.find('.')));
    }
  } else if (stmt.type() == "if_statement") {
    std::map<std::string, std::vector<parse::SyntaxNode>, std::less<>> assigned;
    if_assignments(stmt, assigned, other);
    bound_not_under_if.insert(other.begin(), other.end());
    for (auto& [name, values] : assigned) {
      other.push_back(name);
      auto& all = under_if[name];
      all.insert(all.end(), values.begin(), values.end());
    }
  } else {
    names_bound_inside(stmt, other);
    bound_not_under_if.insert(other.begin(), other.end());
  }
  bound_otherwise.insert(other.begin(), other.end());
}

parse::SyntaxNode ModuleConstants::Scope::lookup(std::string_view name, uint32_t before) const {
  if (bound_otherwise.count(name) || functions.count(name)) return {};
  const auto it = assignments.find(name);
  if (it == assignments.end()) return {};
  if (is_function) {
    // Inside a function the body runs when the kernel is called, somewhere after its `def`: a
    // name assigned again after the `def` has no one value then.
    if (before == kFromBody &&
        std::any_of(it->second.begin(), it->second.end(), [&](const parse::SyntaxNode& value) {
          return value.range().begin >= kernel_begin;
        })) {
      return {};
    }
    before = std::min(before, kernel_begin);
  }
  parse::SyntaxNode found;
  for (const parse::SyntaxNode& value : it->second) {
    if (value.range().begin < before) found = value;
  }
  return found;
}

ModuleConstants ModuleConstants::from_module(const parse::SyntaxNode& module) {
  ModuleConstants table;
  Scope& scope = table.scopes_.emplace_back();
  for (const parse::SyntaxNode& stmt : module.named_children()) scope.add_statement(stmt);
  return table;
}

ModuleConstants ModuleConstants::enclosed_by(const std::vector<parse::SyntaxNode>& functions,
                                             uint32_t kernel_begin) const {
  ModuleConstants table = *this;
  for (const parse::SyntaxNode& function : functions) {
    Scope& scope = table.scopes_.emplace_back();
    scope.is_function = true;
    scope.kernel_begin = kernel_begin;
    std::vector<std::string> params;
    parameter_names(function, params);
    scope.bound_otherwise.insert(params.begin(), params.end());
    for (const parse::SyntaxNode& stmt : function.child_by_field("body").named_children()) {
      scope.add_statement(stmt);
    }
  }
  return table;
}

parse::SyntaxNode ModuleConstants::lookup(std::string_view name, uint32_t before) const {
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
    if (scope->binds(name)) return scope->lookup(name, before);
  }
  return {};
}

std::optional<ModuleConstants::Guarded> ModuleConstants::lookup_past_ifs(std::string_view name,
                                                                         uint32_t before) const {
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
    if (!scope->binds(name)) continue;
    if (scope->bound_not_under_if.count(name) || scope->functions.count(name)) return std::nullopt;
    Guarded found;
    if (const auto it = scope->assignments.find(name); it != scope->assignments.end()) {
      for (const parse::SyntaxNode& value : it->second) {
        if (value.range().begin < before) found.value = value;
      }
    }
    if (const auto it = scope->under_if.find(name); it != scope->under_if.end()) {
      for (const parse::SyntaxNode& assignment : it->second) {
        if (assignment.range().begin < before) found.conditional.push_back(assignment);
      }
    }
    return found;
  }
  return std::nullopt;
}

std::optional<ModuleConstants::Helper> ModuleConstants::helper(std::string_view name) const {
  for (size_t depth = scopes_.size(); depth-- > 0;) {
    const Scope& scope = scopes_[depth];
    if (!scope.binds(name)) continue;
    const auto it = scope.functions.find(name);
    if (it == scope.functions.end() || it->second.size() != 1 || scope.assignments.count(name) ||
        scope.bound_otherwise.count(name)) {
      return std::nullopt;
    }
    auto seen = std::make_shared<ModuleConstants>();
    seen->scopes_.assign(scopes_.begin(), scopes_.begin() + static_cast<long>(depth) + 1);
    return Helper{it->second.front(), std::move(seen)};
  }
  return std::nullopt;
}

}  // namespace helionc::frontend
