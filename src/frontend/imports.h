// The module-level import table: which local names stand for `torch`, `helion`,
// `helion.language`, `torch.nn.functional`, `math`, ... so that `hl.tile`, `helion.language.tile`
// and `from helion.language import tile` all resolve to the same qualified name.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "parse/syntax_tree.h"

namespace helionc::frontend {

class ImportTable {
 public:
  // Reads every top-level `import` / `from ... import` statement of the module.
  static ImportTable from_module(const parse::SyntaxNode& module);

  // The qualified name an identifier or attribute chain stands for ("torch.exp" for `torch.exp`,
  // "helion.language.tile" for `hl.tile`), or nullopt when its root is not an imported name.
  std::optional<std::string> qualified_name(const parse::SyntaxNode& node) const;

 private:
  std::map<std::string, std::string, std::less<>> aliases_;  // local name -> qualified name
};

}  // namespace helionc::frontend
