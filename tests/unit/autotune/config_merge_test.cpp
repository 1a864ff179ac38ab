// merge_config_file: several --config files for one kernel, later files overriding earlier
// ones per entry (a hand-written override over a generated file).
#include <catch2/catch.hpp>

#include "autotune/config.h"

using namespace helionc;
using namespace helionc::autotune;

namespace {
ConfigFile load(const std::string& name, const std::string& text, DiagnosticEngine& diags) {
  std::optional<ConfigFile> config =
      parse_config_text(std::make_shared<SourceFile>(name, text), diags);
  INFO(diags.render());
  REQUIRE(config.has_value());
  return *config;
}
}  // namespace

TEST_CASE("a later config file overrides the default and the entries it repeats", "[config]") {
  DiagnosticEngine diags;
  ConfigFile generated = load("gen.yaml",
                              "schema_version: 1\n"
                              "kernel: mm\n"
                              "target: \"tpu-v5e\"\n"
                              "default: {block_sizes: [128, 128, 128]}\n"
                              "configs:\n"
                              "  - shapes: {x: [64, 64]}\n"
                              "    dtypes: {x: bfloat16}\n"
                              "    config: {block_sizes: [64, 64, 64]}\n"
                              "  - shapes: {x: [256, 256]}\n"
                              "    config: {block_sizes: [256, 256, 256]}\n",
                              diags);
  ConfigFile hand = load("hand.yaml",
                         "schema_version: 1\n"
                         "kernel: mm\n"
                         "configs:\n"
                         "  - shapes: {x: [64, 64]}\n"
                         "    dtypes: {x: bfloat16}\n"
                         "    config: {block_sizes: [32, 32, 32]}\n"
                         "  - shapes: {x: [64, 64]}\n"
                         "    dtypes: {x: float32}\n"
                         "    config: {block_sizes: [16, 16, 16]}\n",
                         diags);
  merge_config_file(generated, hand);
  // No default in the later file: the generated one stays; so does its target.
  CHECK(generated.default_config.block_sizes == std::vector<int64_t>{128, 128, 128});
  CHECK(generated.target == "tpu-v5e");
  REQUIRE(generated.configs.size() == 3);
  // The bf16 64x64 entry is replaced in place; the float32 one is new, after the others.
  CHECK(generated.configs[0].config.block_sizes == std::vector<int64_t>{32, 32, 32});
  CHECK(generated.configs[0].range.file->path() == "hand.yaml");
  CHECK(generated.configs[1].config.block_sizes == std::vector<int64_t>{256, 256, 256});
  CHECK(generated.configs[2].dtypes.at("x") == "float32");

  ConfigFile with_default = load("d.yaml",
                                 "schema_version: 1\nkernel: mm\ntarget: \"tpu-v7x\"\n"
                                 "default: {block_sizes: [8, 128, 128]}\n",
                                 diags);
  merge_config_file(generated, with_default);
  CHECK(generated.default_config.block_sizes == std::vector<int64_t>{8, 128, 128});
  CHECK(generated.target == "tpu-v7x");
  CHECK(generated.configs.size() == 3);
}
