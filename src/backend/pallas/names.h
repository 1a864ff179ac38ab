// Readable, unique Python names for generated code. Names come from the source (`x` ->
// `x_ref`, `tile_m` -> `block_m`); a NameScope hands out a name once and appends a number when
// the readable one is taken (`x_ref`, `x_ref2`).
//
// The names a module reserves are one table, derived rather than kept by hand: what the
// templates (templates/*.tmpl, as embedded in the binary) and the import lines bind at module
// level, the per-kernel names the printers derive from a kernel's name (`_add_kernel`,
// `_ADD_CONFIGS`, `_ADD_DEFAULT`), Python's keywords and builtins, and the public functions'
// `interpret` keyword.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace helionc::backend::pallas {

// The import lines every module starts with (`import jax`, ...), with functools and math when
// the printed code uses them.
std::string module_imports(bool functools, bool math, bool numpy = false);

// The names Python text binds at module level: `def f`, `class C`, `NAME = ...` and
// `NAME: ... = ...` at column 0, and what `import a.b`, `import a as b` and `from m import a as
// b` bind there.
std::set<std::string> module_level_names(std::string_view python_text);

// What the templates and the import lines bind at module level (module_level_names of each).
const std::set<std::string>& template_module_names();

// The public function of a kernel's reference (backend/reference): `reference_add`. A module
// name, so a kernel named like another kernel's reference is refused.
std::string reference_function_name(std::string_view kernel);

// Whether `name` has the shape of a per-kernel module name (`_<kernel>_kernel...`,
// `_<KERNEL>_CONFIGS`, `_<KERNEL>_DEFAULT`).
bool is_kernel_module_name(std::string_view name);

// Module-level names every generated module defines or imports, Python's keywords and
// builtins, and `interpret`: a source name equal to one is renamed.
bool is_reserved_module_name(std::string_view name);

// A binding's source name made safe to use as a local in generated code: a reserved name, and
// a name that is a reserved one followed by underscores, gets one more `_` (`jnp` -> `jnp_`,
// `jnp_` -> `jnp__`), so distinct source names stay distinct.
std::string safe_local_name(std::string_view source_name);

class NameScope {
 public:
  // Marks `name` as used (a source name that stays as it is).
  void reserve(std::string_view name) { used_.insert(std::string(name)); }
  bool taken(std::string_view name) const {
    return used_.count(std::string(name)) > 0 || is_reserved_module_name(name);
  }
  // `base` if free, else base2, base3, ...; the result is reserved.
  std::string fresh(std::string_view base);

 private:
  std::set<std::string> used_;
};

}  // namespace helionc::backend::pallas
