// Names a kernel may read from the scopes around it: `_SCALE = 0.5`, `CONFIG = helion.Config(...)`
// at the top level of the kernel's file, and, for a kernel defined inside a function (a test
// method, a kernel factory), `cfg = helion.Config(...)` in that function's body before the `def`.
// Python looks a kernel's free names up in the innermost function that binds them, else in its
// module. helionc reads the last simple assignment before the kernel, and only for names nothing
// else in that scope binds (a parameter, `def`, `class`, `import`, loop, augmented or annotated
// assignment, or an assignment inside an `if`/`for`/`with`/`try`), whose value is then not one
// expression; a name its function binds that way hides the module's name of the same spelling.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "parse/syntax_tree.h"

namespace helionc::frontend {

class ModuleConstants {
 public:
  // Lookups from the body: the body runs when the kernel is called, after the statements of its
  // module (and, inside a function, after its `def`).
  static constexpr uint32_t kFromBody = UINT32_MAX;

  static ModuleConstants from_module(const parse::SyntaxNode& module);

  // This module's table seen from a kernel whose decorated definition starts at byte
  // `kernel_begin` inside `functions` (outermost first).
  ModuleConstants enclosed_by(const std::vector<parse::SyntaxNode>& functions,
                              uint32_t kernel_begin) const;

  // The expression last assigned to `name` before byte `before` (kFromBody from the kernel's
  // body) in the innermost scope that binds it; a null node when there is none or the name is
  // bound otherwise there.
  parse::SyntaxNode lookup(std::string_view name, uint32_t before) const;

  // A helper function a kernel may call: a plain `def name(...)` of the innermost scope that
  // binds `name`, its only binding there; with the scopes its own body sees (the one it is
  // defined in and those around it).
  struct Helper {
    parse::SyntaxNode function;
    std::shared_ptr<const ModuleConstants> scope;
  };
  std::optional<Helper> helper(std::string_view name) const;

  // A name whose innermost binding scope assigns it plainly, some of those assignments inside
  // `if` statements (whose conditions helionc cannot evaluate): `value` is the last assignment
  // outside an `if` before byte `before` (null if none), `conditional` those under an `if`
  // before it. Nullopt when the scope binds the name otherwise (a loop, an import, a def).
  struct Guarded {
    parse::SyntaxNode value;
    std::vector<parse::SyntaxNode> conditional;
  };
  std::optional<Guarded> lookup_past_ifs(std::string_view name, uint32_t before) const;

 private:
  struct Scope {
    std::map<std::string, std::vector<parse::SyntaxNode>, std::less<>> assignments;
    std::set<std::string, std::less<>> bound_otherwise;
    // Plain assignments inside `if` statements (also in bound_otherwise), and the names bound
    // otherwise than by them.
    std::map<std::string, std::vector<parse::SyntaxNode>, std::less<>> under_if;
    std::set<std::string, std::less<>> bound_not_under_if;
    std::map<std::string, std::vector<parse::SyntaxNode>, std::less<>> functions;  // plain defs
    // A function scope: the kernel's start; its names are read as they stand there.
    bool is_function = false;
    uint32_t kernel_begin = 0;

    void add_statement(const parse::SyntaxNode& stmt);
    bool binds(std::string_view name) const {
      return bound_otherwise.count(name) || assignments.count(name) || functions.count(name);
    }
    parse::SyntaxNode lookup(std::string_view name, uint32_t before) const;
  };

  std::vector<Scope> scopes_;  // the module first, the innermost function last
};

}  // namespace helionc::frontend
