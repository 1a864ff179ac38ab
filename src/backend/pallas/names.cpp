#include "backend/pallas/names.h"

#include <fmt/format.h>

#include <array>

namespace helionc::backend::pallas {

bool is_reserved_module_name(std::string_view name) {
  // Imports and prelude helpers of every module (templates/prelude.py.tmpl), and keywords.
  static constexpr std::array<std::string_view, 27> kNames = {
      "_expm1",
      "_sinh",
      "_cosh",
      "_asin",
      "_acos",
      "_gelu",
      "jax",
      "jnp",
      "pl",
      "pltpu",
      "functools",
      "math",
      "TARGET",
      "_interpret",
      "_legal_block",
      "_default_block",
      "_select_config",
      "_any_rank_tiles",
      "tpu_lowering_context",
      "_DEFAULT_BLOCKS",
      "_BLOCK_MULTIPLES",
      "_TPU_DEVICE_KINDS",
      "None",
      "True",
      "False",
      "lambda",
      "interpret",
  };
  for (std::string_view reserved : kNames) {
    if (name == reserved) return true;
  }
  return false;
}

std::string safe_local_name(std::string_view source_name) {
  std::string name(source_name);
  if (is_reserved_module_name(name)) name += "_";
  return name;
}

std::string NameScope::fresh(std::string_view base) {
  std::string name(base);
  for (int n = 2; taken(name); ++n) name = fmt::format("{}{}", base, n);
  used_.insert(name);
  return name;
}

}  // namespace helionc::backend::pallas
