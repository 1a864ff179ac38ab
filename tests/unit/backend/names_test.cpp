// The names a module reserves: derived from the embedded templates and the import lines, and
// every one of them renamed when a source name takes it.
#include <catch2/catch.hpp>

#include <regex>
#include <string>

#include "backend/pallas/names.h"
#include "support/templates.h"

namespace helionc::backend::pallas {
namespace {

// An independent reading of what a template defines at module level: `def NAME`, `class
// NAME` and `NAME =` at the start of a line.
std::set<std::string> defined_by(std::string_view text) {
  std::set<std::string> names;
  // (std::regex has no multi-line `^`: matches are kept when they start a line.)
  static const std::regex definition(R"((?:def |class )?([A-Za-z_][A-Za-z0-9_]*) *[(:=])");
  const std::string copy(text);
  for (auto it = std::sregex_iterator(copy.begin(), copy.end(), definition,
                                      std::regex_constants::match_default);
       it != std::sregex_iterator(); ++it) {
    if (it->position(0) == 0 || copy[it->position(0) - 1] == '\n') names.insert((*it)[1]);
  }
  return names;
}

TEST_CASE("every name a template defines is reserved") {
  const TemplateSet templates = TemplateSet::embedded();
  size_t checked = 0;
  for (const std::string& file : templates.names()) {
    auto text = templates.get(file);
    REQUIRE(text);
    for (const std::string& name : defined_by(*text)) {
      INFO(file << " defines " << name);
      CHECK(is_reserved_module_name(name));
      CHECK(safe_local_name(name) != name);
      ++checked;
    }
  }
  // The prelude and helpers define dozens (`_interpret`, `_dot`, `_gather_rows_dma`, ...).
  CHECK(checked > 40);
  for (const char* name : {"_dot", "_emit_pipeline", "_gather_rows_dma", "_scalar_op", "TARGET",
                           "_select_config", "tpu_lowering_context", "_vmem_bytes"}) {
    INFO(name);
    CHECK(template_module_names().count(name) == 1);
  }
}

TEST_CASE("the imports' names are reserved") {
  for (const char* name : {"jax", "jnp", "pl", "pltpu", "functools", "math"}) {
    INFO(name);
    CHECK(template_module_names().count(name) == 1);
  }
  CHECK(module_level_names("import a.b.c\nimport d as e\nfrom f.g import h, i as j\n") ==
        std::set<std::string>{"a", "e", "h", "j"});
}

TEST_CASE("module_level_names reads only column-0 definitions") {
  CHECK(module_level_names("def f(x):\n    y = 1\n    def g():\n        pass\nZ = {\n    "
                           "'a': 1,\n}\nif Z == 1:\n    W = 2\nV: int = 3\n") ==
        std::set<std::string>{"V", "Z", "f"});
}

TEST_CASE("per-kernel module names, keywords, builtins and `interpret` are reserved") {
  for (const char* name :
       {"_k_kernel", "_k_kernel_0", "_k_kernel_grid_unroll", "_K_CONFIGS", "_K_DEFAULT", "len",
        "range", "min", "if", "lambda", "None", "interpret"}) {
    INFO(name);
    CHECK(is_reserved_module_name(name));
  }
  for (const char* name : {"x", "out", "tile_m", "kernel", "_kernelish", "acc", "k_kernel"}) {
    INFO(name);
    CHECK_FALSE(is_reserved_module_name(name));
  }
}

TEST_CASE("renaming keeps distinct source names distinct") {
  CHECK(safe_local_name("x") == "x");
  CHECK(safe_local_name("jnp") == "jnp_");
  CHECK(safe_local_name("jnp_") == "jnp__");
  CHECK(safe_local_name("jnp__") == "jnp___");
  CHECK(safe_local_name("x_") == "x_");
  CHECK(safe_local_name("_") == "_");
}

}  // namespace
}  // namespace helionc::backend::pallas
