// Readable, unique Python names for generated code. Names come from the source (`x` ->
// `x_ref`, `tile_m` -> `block_m`); a NameScope hands out a name once and appends a number when
// the readable one is taken (`x_ref`, `x_ref2`).
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace helionc::backend::pallas {

// Module-level names every generated module defines or imports (and Python keywords that
// can appear as source names only by mistake); a source name equal to one is renamed.
bool is_reserved_module_name(std::string_view name);

// A binding's source name made safe to use as a local in generated code.
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
