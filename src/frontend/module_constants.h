// Module-level names a kernel may read: `_SCALE = 0.5`, `CONFIG = helion.Config(...)` at the top
// level of the kernel's file. Python looks a kernel's free names up in its module when the
// kernel runs; helionc reads the last simple assignment before the kernel, and only for names
// nothing else at the top level binds (a `def`, `class`, `import`, loop, augmented or annotated
// assignment, or an assignment inside an `if`/`try`), whose value is then not one expression.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "parse/syntax_tree.h"

namespace helionc::frontend {

class ModuleConstants {
 public:
  static ModuleConstants from_module(const parse::SyntaxNode& module);

  // The expression last assigned to `name` at the top level before byte `before`; a null node
  // when there is none or the name is bound otherwise too.
  parse::SyntaxNode lookup(std::string_view name, uint32_t before) const;

 private:
  std::map<std::string, std::vector<parse::SyntaxNode>, std::less<>> assignments_;
  std::set<std::string, std::less<>> bound_otherwise_;
};

}  // namespace helionc::frontend
