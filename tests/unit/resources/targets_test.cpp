// The built-in targets (configs/targets/*.yaml, embedded) and the target-file reader.
#include <catch2/catch.hpp>

#include "autotune/targets.h"

namespace helionc::autotune {
namespace {

TEST_CASE("the built-in targets, in order of generation") {
  std::vector<std::string> names;
  for (const TargetInfo& target : builtin_targets()) {
    names.push_back(target.name);
    INFO(target.name);
    CHECK(target.vmem_bytes >= 16 * 1024 * 1024);
    CHECK(target.smem_bytes > 0);
    CHECK(target.mxu_count * target.mxu_rows * target.mxu_cols > 0);
    CHECK(target.bf16_peak_tflops > 0);
    CHECK(target.hbm_bandwidth_gb_s > 0);
    CHECK(target.cores_per_chip >= 1);
    CHECK_FALSE(target.device_kind.empty());
    CHECK(target.compile_topology.find(':') != std::string::npos);
  }
  CHECK(names == std::vector<std::string>{"tpu-v4", "tpu-v5e", "tpu-v5p", "tpu-v6e", "tpu-v7x"});
  CHECK(find_target("tpu-v7x") == &builtin_targets().back());
  CHECK(find_target("tpu-v9") == nullptr);
  CHECK(target_name_list() == "tpu-v4, tpu-v5e, tpu-v5p, tpu-v6e, tpu-v7x");
}

TEST_CASE("a broken target file is reported at its line and column") {
  auto file = std::make_shared<const SourceFile>("t.yaml",
                                                 "schema_version: 1\n"
                                                 "target: tpu-x\n"
                                                 "vmem_bytes: -4\n"
                                                 "mxu: {count: 2, rows: 256}\n"
                                                 "colour: blue\n");
  DiagnosticEngine diags;
  CHECK_FALSE(parse_target_text(file, diags));
  const std::string text = diags.render();
  CHECK(text.find("t.yaml:3:13: error: `vmem_bytes` must be a positive integer") !=
        std::string::npos);
  CHECK(text.find("`mxu` needs `count`, `rows` and `cols`") != std::string::npos);
  CHECK(text.find("t.yaml:5:1: error: unknown key `colour`") != std::string::npos);
  CHECK(text.find("missing `device_kind`") != std::string::npos);
  CHECK(text.find("missing `compile_topology`") != std::string::npos);
}

}  // namespace
}  // namespace helionc::autotune
