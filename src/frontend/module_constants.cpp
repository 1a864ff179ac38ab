#include "frontend/module_constants.h"

namespace helionc::frontend {

namespace {

// The names a target binds (`a`, `a, b`, `(a, [b, c])`).
void target_names(const parse::SyntaxNode& target, std::vector<std::string>& names) {
  if (target.type() == "identifier") {
    names.emplace_back(target.text());
    return;
  }
  for (const parse::SyntaxNode& child : target.named_children()) target_names(child, names);
}

// Every name bound anywhere inside `node` (the bodies of top-level `if`, `for`, `with`, `try`).
void names_bound_inside(const parse::SyntaxNode& node, std::vector<std::string>& names) {
  const std::string_view type = node.type();
  if (type == "assignment" || type == "augmented_assignment" || type == "for_statement") {
    target_names(node.child_by_field("left"), names);
  } else if (type == "function_definition" || type == "class_definition") {
    names.emplace_back(node.child_by_field("name").text());
    return;
  }
  for (const parse::SyntaxNode& child : node.named_children()) names_bound_inside(child, names);
}

}  // namespace

ModuleConstants ModuleConstants::from_module(const parse::SyntaxNode& module) {
  ModuleConstants table;
  std::vector<std::string> other;
  for (const parse::SyntaxNode& stmt : module.named_children()) {
    const parse::SyntaxNode inner =
        stmt.type() == "expression_statement" ? stmt.named_children().front() : stmt;
    if (inner.type() == "assignment" && !inner.child_by_field("type") &&
        inner.child_by_field("right") && inner.child_by_field("right").type() != "assignment") {
      const parse::SyntaxNode target = inner.child_by_field("left");
      if (target.type() == "identifier") {
        table.assignments_[std::string(target.text())].push_back(inner.child_by_field("right"));
        continue;
      }
    }
    if (stmt.type() == "import_statement" || stmt.type() == "import_from_statement") {
      for (const parse::SyntaxNode& name : stmt.children_by_field("name")) {
        const parse::SyntaxNode local =
            name.type() == "aliased_import" ? name.child_by_field("alias") : name;
        const std::string_view text = local.text();
        other.emplace_back(text.substr(0, text.find('.')));
      }
      continue;
    }
    names_bound_inside(stmt, other);
  }
  table.bound_otherwise_.insert(other.begin(), other.end());
  return table;
}

parse::SyntaxNode ModuleConstants::lookup(std::string_view name, uint32_t before) const {
  if (bound_otherwise_.count(name)) return {};
  const auto it = assignments_.find(name);
  if (it == assignments_.end()) return {};
  parse::SyntaxNode found;
  for (const parse::SyntaxNode& value : it->second) {
    if (value.range().begin < before) found = value;
  }
  return found;
}

}  // namespace helionc::frontend
