// Which inner-loop steps may be skipped (passes/plan_skips.h): causal attention's key blocks
// above the diagonal, and the variations of its mask and body that must not be skipped.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "frontend/lowering_fixture.h"
#include "passes/pipeline.h"

namespace helionc {
namespace {

// samples/causal_attention.py with `edit` applied (old text -> new text).
std::string causal_sample(const std::string& old_text = "", const std::string& new_text = "") {
  std::ifstream file(std::string(HELIONC_SOURCE_DIR) + "/samples/causal_attention.py");
  std::stringstream text;
  text << file.rdbuf();
  std::string source = text.str();
  REQUIRE(source.find("def causal_attention_output") != std::string::npos);
  if (!old_text.empty()) {
    const size_t at = source.find(old_text);
    REQUIRE(at != std::string::npos);
    source.replace(at, old_text.size(), new_text);
  }
  return source;
}

std::optional<passes::StepSkip> skip_of(const std::string& source) {
  auto lowered = testing::lower(source, /*with_prelude=*/false);
  INFO(lowered->errors());
  REQUIRE_FALSE(lowered->diags.has_errors());
  auto result = passes::run_pipeline(std::move(lowered->module), {}, lowered->diags);
  INFO(lowered->errors());
  REQUIRE(result);
  const passes::Launch& launch = result->plans.front().launches.front();
  REQUIRE(launch.inner_loops.size() == 1);
  const std::optional<passes::StepSkip> skip = launch.inner_loops.front().skip;
  if (skip) {
    const ir::Kernel& kernel = result->module.kernels.front();
    CHECK(kernel.tile_dims[skip->outer_dim].name == "tile_m");
    CHECK(kernel.tile_dims[skip->inner_dim].name == "tile_n");
  }
  return skip;
}

const std::string kMask = "tile_m.index[None, :, None] >= tile_n.index[None, None, :]";

TEST_CASE("causal attention skips the key blocks above the diagonal") {
  const auto skip = skip_of(causal_sample());
  REQUIRE(skip);
  CHECK(skip->offset == 0);
}

TEST_CASE("the mask's offset is kept; the mirrored comparison is the same rule") {
  const auto ahead = skip_of(
      causal_sample(kMask, "tile_m.index[None, :, None] + 2 >= tile_n.index[None, None, :]"));
  REQUIRE(ahead);
  CHECK(ahead->offset == 2);
  const auto mirrored =
      skip_of(causal_sample(kMask, "tile_n.index[None, None, :] <= tile_m.index[None, :, None]"));
  REQUIRE(mirrored);
  CHECK(mirrored->offset == 0);
}

TEST_CASE("steps that do work, or whose first block may be empty, are not skipped") {
  // A strict comparison masks query 0's only key: its row stays -inf, no step is the identity.
  CHECK_FALSE(
      skip_of(causal_sample(kMask, "tile_m.index[None, :, None] > tile_n.index[None, None, :]")));
  // Masked to 0 rather than -inf: exp(0) = 1 adds to the sums.
  CHECK_FALSE(
      skip_of(causal_sample("qk,\n                float(\"-inf\"),", "qk,\n                0.0,")));
  // The mask compares the wrong way round: the blocks kept are the late ones.
  CHECK_FALSE(
      skip_of(causal_sample(kMask, "tile_m.index[None, :, None] <= tile_n.index[None, None, :]")));
  // A carry that changes at every step.
  CHECK_FALSE(skip_of(causal_sample("l_i = l_i * alpha + l_ij", "l_i = l_i * alpha + l_ij + 1.0")));
  // No mask at all.
  CHECK_FALSE(skip_of(
      causal_sample("qk = torch.where(\n                " + kMask +
                        ",\n                qk,\n                float(\"-inf\"),\n            )",
                    "qk = qk")));
}

}  // namespace
}  // namespace helionc
