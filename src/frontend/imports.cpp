#include "frontend/imports.h"

namespace helionc::frontend {

namespace {

std::string dotted(const parse::SyntaxNode& node) { return std::string(node.text()); }

}  // namespace

ImportTable ImportTable::from_module(const parse::SyntaxNode& module) {
  ImportTable table;
  for (const parse::SyntaxNode& stmt : module.named_children()) {
    if (stmt.type() == "import_statement") {
      // `import torch`, `import helion.language as hl`. A plain dotted import binds only its
      // first component, which then resolves attribute chains by itself.
      for (const parse::SyntaxNode& name : stmt.children_by_field("name")) {
        if (name.type() == "aliased_import") {
          table.aliases_[std::string(name.child_by_field("alias").text())] =
              dotted(name.child_by_field("name"));
        } else {
          const std::string full = dotted(name);
          const std::string root = full.substr(0, full.find('.'));
          table.aliases_[root] = root;
        }
      }
    } else if (stmt.type() == "import_from_statement") {
      const parse::SyntaxNode module_name = stmt.child_by_field("module_name");
      if (!module_name || module_name.type() != "dotted_name") continue;  // relative imports
      const std::string prefix = dotted(module_name);
      for (const parse::SyntaxNode& name : stmt.children_by_field("name")) {
        if (name.type() == "aliased_import") {
          table.aliases_[std::string(name.child_by_field("alias").text())] =
              prefix + "." + dotted(name.child_by_field("name"));
        } else {
          table.aliases_[dotted(name)] = prefix + "." + dotted(name);
        }
      }
    }
  }
  return table;
}

std::optional<std::string> ImportTable::qualified_name(const parse::SyntaxNode& node) const {
  if (node.type() == "identifier") {
    auto it = aliases_.find(node.text());
    if (it == aliases_.end()) return std::nullopt;
    return it->second;
  }
  if (node.type() == "attribute") {
    auto base = qualified_name(node.child_by_field("object"));
    if (!base) return std::nullopt;
    return *base + "." + std::string(node.child_by_field("attribute").text());
  }
  return std::nullopt;
}

}  // namespace helionc::frontend
