#include "backend/pallas/helper_calls.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "passes/launch_plan.h"

namespace helionc::backend::pallas {
namespace {

TEST_CASE("a helper needs the helpers whose names its text uses, transitively", "[helpers]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "helionc_helper_calls_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "helper_outer.py.tmpl") << "def _outer(x):\n    return _middle(x)\n";
  std::ofstream(dir / "helper_middle.py.tmpl")
      << "def _middle(x):\n    return x * _SCALE\n\n\ndef _middle_2(x):\n    return x\n";
  std::ofstream(dir / "helper_scale.py.tmpl") << "_SCALE = 2\n";
  // Mentions `_outer` inside a longer name and `outer` without the underscore: neither uses it.
  std::ofstream(dir / "helper_alone.py.tmpl") << "def _alone(x):\n    return x_outer + outer\n";
  std::ofstream(dir / "module.py.tmpl") << "$helpers\n";

  Expected<TemplateSet> templates = TemplateSet::from_directory(dir.string());
  REQUIRE(templates.ok());
  Expected<std::set<std::string>> outer = with_called_helpers(*templates, {"outer"});
  REQUIRE(outer.ok());
  CHECK(*outer == std::set<std::string>{"middle", "outer", "scale"});
  Expected<std::set<std::string>> alone = with_called_helpers(*templates, {"alone"});
  REQUIRE(alone.ok());
  CHECK(*alone == std::set<std::string>{"alone"});
  Expected<std::set<std::string>> missing = with_called_helpers(*templates, {"nowhere"});
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().find("helper_nowhere.py.tmpl") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("the built-in helpers bring what they call", "[helpers]") {
  const TemplateSet templates = TemplateSet::embedded();
  Expected<std::set<std::string>> gather = with_called_helpers(templates, {"gather"});
  REQUIRE(gather.ok());
  for (const char* called : {"lanes", "layout", "generation", "smem_array", "block_at"}) {
    CHECK(gather->contains(called));
  }
  Expected<std::set<std::string>> layout = with_called_helpers(templates, {"layout"});
  REQUIRE(layout.ok());
  CHECK(*layout == std::set<std::string>{"generation", "layout"});
}

// The VMEM accounting counts a DMA-capable row gather's compares only below the table size at
// which the module switches to copying rows (passes::kGatherOneHotRows): one figure, two
// languages.
TEST_CASE("the accounting's one-hot row limit is the module's", "[helpers]") {
  const TemplateSet templates = TemplateSet::embedded();
  Expected<std::string_view> gather = templates.get("helper_gather.py.tmpl");
  REQUIRE(gather.ok());
  const std::string line =
      "_GATHER_ONE_HOT_ROWS = " + std::to_string(passes::kGatherOneHotRows) + " ";
  CHECK(gather->find(line) != std::string_view::npos);
}

}  // namespace
}  // namespace helionc::backend::pallas
