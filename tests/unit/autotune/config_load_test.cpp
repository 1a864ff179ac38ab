#include <catch2/catch.hpp>

#include <fmt/core.h>

#include <filesystem>
#include <fstream>

#include "autotune/config.h"

using namespace helionc;
using namespace helionc::autotune;

namespace {

std::optional<ConfigFile> parse(std::string_view text, DiagnosticEngine& diags,
                                const ConfigParseOptions& options = {}) {
  return parse_config_text(std::make_shared<SourceFile>("c.yaml", std::string(text)), diags,
                           options);
}

// "line:col: message" for each diagnostic, for compact checks of positions.
std::vector<std::string> errors_of(std::string_view text, const ConfigParseOptions& options = {}) {
  DiagnosticEngine diags;
  std::optional<ConfigFile> config = parse(text, diags, options);
  CHECK_FALSE(config.has_value());
  std::vector<std::string> errors;
  for (const Diagnostic& d : diags.diagnostics()) {
    LineColumn lc = d.range.file->line_column(d.range.begin);
    errors.push_back(fmt::format("{}:{}: {}", lc.line, lc.column, d.message));
  }
  return errors;
}

using Lines = std::vector<std::string>;

constexpr std::string_view kFull = R"(# tuned by hand
schema_version: 1
kernel: attention
source_sha256: 3F0C000000000000000000000000000000000000000000000000000000000001
target: tpu-v7x
x-owner: someone
default:
  block_sizes: [1, 128, 128]
  pallas_loop_type: [emit_pipeline]
configs:
  - shapes: {q_in: [8, 32, 8192, 256], k_in: [8, 32, 8192, 256]}
    dtypes: {q_in: bfloat16, k_in: bfloat16}
    config: {block_sizes: [1, 512, 512], pallas_loop_type: [unroll], vmem_limit_bytes: 100663296}
    predicted: {time_us: 1234.5, tflops: 812.0, vmem_bytes: 48234496, hbm_bytes: 805306368}
  - shapes:
      q_in: [1, 1, 128, 64]
    config:
      block_sizes: [1, 128, 64]
      pallas_load_buffer_count: [2, 3]
      loop_orders: [[1, 0], [0, 2, 1]]
      pallas_pre_broadcast: true
      x-note: "kept"
      x-list: [1, 2]
)";

}  // namespace

TEST_CASE("a complete config file loads with its values and positions", "[config]") {
  DiagnosticEngine diags;
  std::optional<ConfigFile> config = parse(kFull, diags);
  INFO(diags.render());
  REQUIRE(config.has_value());
  CHECK(diags.diagnostics().empty());
  CHECK(config->schema_version == 1);
  CHECK(config->kernel == "attention");
  CHECK(config->source_sha256 ==
        "3f0c000000000000000000000000000000000000000000000000000000000001");
  CHECK(config->target == "tpu-v7x");
  CHECK(config->default_config.block_sizes == std::vector<int64_t>{1, 128, 128});
  CHECK(config->default_config.pallas_loop_type == std::vector<std::string>{"emit_pipeline"});
  REQUIRE(config->configs.size() == 2);
  const ShapeEntry& first = config->configs[0];
  CHECK(first.shapes.at("q_in") == std::vector<int64_t>{8, 32, 8192, 256});
  CHECK(first.dtypes.at("k_in") == "bfloat16");
  CHECK(first.config.vmem_limit_bytes == 100663296);
  CHECK(first.config.pallas_loop_type == std::vector<std::string>{"unroll"});
  REQUIRE(first.predicted.has_value());
  CHECK(first.predicted->time_us == 1234.5);
  CHECK(first.predicted->tflops == 812.0);
  CHECK(first.predicted->hbm_bytes == 805306368);
  const ShapeEntry& second = config->configs[1];
  CHECK(second.dtypes.empty());
  CHECK(second.config.pallas_load_buffer_count == std::vector<int64_t>{2, 3});
  CHECK(second.config.loop_orders == std::vector<std::vector<int64_t>>{{1, 0}, {0, 2, 1}});
  CHECK(second.config.pallas_pre_broadcast == true);
  CHECK(second.config.tunables.size() == 1);  // the non-scalar x- value is ignored
  CHECK(second.config.tunables.at("x-note") == ScalarValue{"kept", true});

  // Ranges point into the YAML text for late errors.
  const SourceFile& file = *config->file;
  CHECK(file.text_of(config->kernel_range) == "attention");
  REQUIRE(first.config.block_size_ranges.size() == 3);
  CHECK(file.text_of(first.config.block_size_ranges[1]) == "512");
  LineColumn lc = file.line_column(first.config.block_size_ranges[1].begin);
  CHECK(lc.line == 13);
  CHECK(lc.column == 31);
  CHECK(file.text_of(first.config.value_ranges.at("pallas_loop_type")) == "[unroll]");
  CHECK(file.text_of(second.config.range) == "block_sizes: [1, 128, 64]");
  CHECK(config->default_config.range.valid());
}

TEST_CASE("a minimal config and an absent default", "[config]") {
  DiagnosticEngine diags;
  std::optional<ConfigFile> config = parse("schema_version: 1\nkernel: add\n", diags);
  REQUIRE(config.has_value());
  CHECK_FALSE(config->default_config.range.valid());
  CHECK(config->default_config == KernelConfig{});
  CHECK(config->configs.empty());
  CHECK_FALSE(config->source_sha256.has_value());
}

TEST_CASE("an error shows the YAML line with a caret", "[config]") {
  DiagnosticEngine diags;
  CHECK_FALSE(parse("schema_version: 1\nkernel: add\ndefault:\n  block_sizes: [64, 0]\n", diags));
  CHECK(diags.render() ==
        "c.yaml:4:21: error: a block size must be a positive integer, not `0`\n"
        "    4 |   block_sizes: [64, 0]\n"
        "      |                     ^\n");
  CHECK(diags.diagnostics()[0].kind == DiagnosticKind::kConfigSchema);
}

TEST_CASE("YAML syntax errors come from yaml-cpp with their position", "[config]") {
  DiagnosticEngine diags;
  CHECK_FALSE(parse("schema_version: 1\nkernel: a: b\n", diags));
  REQUIRE(diags.diagnostics().size() == 1);
  CHECK(diags.diagnostics()[0].kind == DiagnosticKind::kConfigSyntax);
  CHECK(diags.render() ==
        "c.yaml:2:10: error: invalid YAML: illegal map value\n"
        "    2 | kernel: a: b\n"
        "      |          ^\n");
  CHECK(errors_of("schema_version: 1\nkernel: [a, b\n") ==
        Lines{"3:1: invalid YAML: end of sequence flow not found"});
}

TEST_CASE("a stray comma is a syntax error, not an endless loop in yaml-cpp", "[config]") {
  // yaml-cpp 0.7's LoadAll loops forever on these (jbeder/yaml-cpp#1040).
  CHECK(errors_of(",") == Lines{"1:1: invalid YAML: unexpected `,`"});
  CHECK(errors_of("# comment\n  ,schema_version: 1\n") ==
        Lines{"2:3: invalid YAML: unexpected `,`"});
  CHECK(errors_of("schema_version: 1\nkernel: a\n---\n,\n") ==
        Lines{"3:1: a config file holds one YAML document; this is a second one"});
}

TEST_CASE("schema_version and kernel are required", "[config]") {
  CHECK(errors_of("") ==
        Lines{"1:1: empty config file; expected `schema_version: 1` and `kernel: NAME`"});
  CHECK(errors_of("# only a comment\n") ==
        Lines{"1:1: empty config file; expected `schema_version: 1` and `kernel: NAME`"});
  CHECK(errors_of("kernel: add\n") ==
        Lines{"1:1: missing `schema_version`; add `schema_version: 1`"});
  CHECK(errors_of("kernel: add\nschema_version: 2\n") ==
        Lines{"2:17: unsupported `schema_version` 2; this helionc reads version 1"});
  CHECK(errors_of("schema_version: \"1\"\n") ==
        Lines{"1:17: `schema_version` must be an integer, not the string `\"1\"`"});
  CHECK(errors_of("schema_version: 1\n") ==
        Lines{"1:1: missing `kernel`; add `kernel: NAME` naming the kernel these configs tune"});
  CHECK(errors_of("schema_version: 1\nkernel: my-kernel\n") ==
        Lines{"2:9: `kernel` must be the name of a kernel function, not `my-kernel`"});
  CHECK(errors_of("- schema_version: 1\n") ==
        Lines{"1:1: a config file must be a mapping with `schema_version: 1` and `kernel: NAME`, "
              "not a list"});
  CHECK(errors_of("schema_version: 1\nkernel: a\n---\nkernel: b\n") ==
        Lines{"3:1: a config file holds one YAML document; this is a second one"});
}

TEST_CASE("block sizes must be a list of positive integers", "[config]") {
  const std::string prefix = "schema_version: 1\nkernel: k\ndefault:\n";
  CHECK(errors_of(prefix + "  block_sizes: 64\n") ==
        Lines{"4:16: `block_sizes` must be a list, e.g. `[64, 128]`, not `64`"});
  CHECK(errors_of(prefix + "  block_sizes:\n") ==
        Lines{"4:3: `block_sizes` must be a list, e.g. `[64, 128]`, not nothing"});
  CHECK(errors_of(prefix + "  block_sizes: [64, -1, \"32\", 1.5, [8], 99999999999999999999]\n") ==
        Lines{"4:21: a block size must be a positive integer, not `-1`",
              "4:25: a block size must be a positive integer, not the string `\"32\"`",
              "4:31: a block size must be a positive integer, not `1.5`",
              "4:36: a block size must be a positive integer, not a list",
              "4:41: a block size must be a positive integer, not `99999999999999999999`"});
  // Block-style lists work the same way.
  CHECK(errors_of(prefix + "  block_sizes:\n    - 64\n    - zero\n") ==
        Lines{"6:7: a block size must be a positive integer, not `zero`"});
}

TEST_CASE("unknown keys are errors unless prefixed x-", "[config]") {
  CHECK(errors_of("schema_version: 1\nkernel: k\ndefault: {blok_sizes: [64]}\n") ==
        Lines{"3:11: unknown key `blok_sizes` in a config; did you mean `block_sizes`?"});
  CHECK(errors_of("schema_version: 1\nkernel: k\nconfgs: []\n") ==
        Lines{"3:1: unknown key `confgs` in a config file; did you mean `configs`?"});
  CHECK(errors_of("schema_version: 1\nkernel: k\nnum_warps: 4\n") ==
        Lines{"3:1: unknown key `num_warps` in a config file; expected one of `schema_version`, "
              "`kernel`, `source_sha256`, `target`, `helionc_version`, `model_version`, `default`, "
              "`configs` (keys of your own need the "
              "`x-` prefix)"});
  CHECK(errors_of("schema_version: 1\nkernel: k\nconfigs:\n  - {shapes: {x: [4]}, config: {}, "
                  "predicted: {time: 1}}\n") ==
        Lines{"4:48: unknown key `time` in `predicted`; did you mean `time_us`?"});
  // x- keys everywhere are accepted.
  DiagnosticEngine diags;
  CHECK(parse(
      "schema_version: 1\nkernel: k\nx-a: 1\nconfigs:\n  - {shapes: {x: [4]}, config: {x-b: 2}, "
      "x-c: 3, predicted: {x-d: 4}}\n",
      diags));
  CHECK(diags.diagnostics().empty());
}

TEST_CASE("register_tunable names are accepted when the caller names them", "[config]") {
  std::string text =
      "schema_version: 1\nkernel: k\ndefault: {chunk: 64, mode: fast, flag: \"true\"}\n";
  CHECK(errors_of(text).size() == 3);
  DiagnosticEngine diags;
  std::optional<ConfigFile> config =
      parse(text, diags, {.tunable_names = {"chunk", "mode", "flag"}});
  REQUIRE(config.has_value());
  CHECK(config->default_config.tunables.at("chunk") == ScalarValue{"64", false});
  CHECK(config->default_config.tunables.at("mode") == ScalarValue{"fast", true});
  CHECK(config->default_config.tunables.at("flag") == ScalarValue{"true", true});
  CHECK(errors_of("schema_version: 1\nkernel: k\ndefault: {chunk: [1]}\n",
                  {.tunable_names = {"chunk"}}) ==
        Lines{"3:18: tunable `chunk` must be a single value, not a list"});
}

TEST_CASE("loop types, buffer counts, loop orders and flags are checked", "[config]") {
  const std::string prefix = "schema_version: 1\nkernel: k\ndefault:\n";
  CHECK(errors_of(prefix + "  pallas_loop_type: [unroll, unrol, \"grid\"]\n") ==
        Lines{"4:30: unknown loop type `unrol`; expected `unroll`, `emit_pipeline`, `fori_loop` or "
              "`grid`"});
  CHECK(errors_of(prefix + "  pallas_load_buffer_count: [1, 0, 4]\n") ==
        Lines{"4:33: a buffer count must be 1, 2 or 3, not `0`",
              "4:36: a buffer count must be 1, 2 or 3, not `4`"});
  CHECK(errors_of(prefix + "  loop_orders: [[0, 0], [2, 1, 0], 1]\n") ==
        Lines{"4:17: loop order `[0, 0]` must be a permutation of 0..1",
              "4:36: a loop order must be a list of grid dimensions, e.g. `[1, 0]`, not `1`"});
  CHECK(errors_of(prefix + "  pallas_pre_broadcast: yes\n") ==
        Lines{"4:25: `pallas_pre_broadcast` must be `true` or `false`, not `yes`"});
  CHECK(errors_of(prefix + "  vmem_limit_bytes: 0\n") ==
        Lines{"4:21: `vmem_limit_bytes` must be a positive integer, not `0`"});
  CHECK(errors_of("schema_version: 1\nkernel: k\ndefault: [64]\n") ==
        Lines{"3:10: `default` must be a mapping, e.g. `{block_sizes: [64, 128]}`, not a list"});
}

TEST_CASE("dtypes are TPU dtypes; 64-bit types are refused", "[config]") {
  auto entry = [](std::string_view dtype) {
    return fmt::format(
        "schema_version: 1\nkernel: k\nconfigs:\n  - shapes: {{x: [4]}}\n    dtypes: {{x: {}}}\n"
        "    config: {{}}\n",
        dtype);
  };
  DiagnosticEngine diags;
  for (std::string_view ok :
       {"float32", "bfloat16", "float16", "int32", "int16", "int8", "uint8", "bool",
        "float8_e4m3fn", "float8_e5m2"})  // every dtype --autotune writes
    CHECK(parse(entry(ok), diags));
  CHECK(diags.diagnostics().empty());
  CHECK(errors_of(entry("float64")) == Lines{"5:17: 64-bit dtype `float64` is not supported: TPUs "
                                             "have no 64-bit types; use `float32`"});
  CHECK(errors_of(entry("torch.int64")) ==
        Lines{"5:17: 64-bit dtype `torch.int64` is not supported: TPUs have no 64-bit types; use "
              "`int32`"});
  CHECK(errors_of(entry("torch.bfloat16")) ==
        Lines{"5:17: write dtype `torch.bfloat16` as `bfloat16`"});
  CHECK(errors_of(entry("fp8")) ==
        Lines{"5:17: unknown dtype `fp8`; expected one of bool, uint8, int8, int16, int32, "
              "float8_e4m3fn, float8_e5m2, float16, bfloat16, float32"});
}

TEST_CASE("shape entries need shapes and config, once each", "[config]") {
  const std::string prefix = "schema_version: 1\nkernel: k\nconfigs:\n";
  CHECK(errors_of(prefix + "  - config: {}\n") ==
        Lines{"4:5: this entry has no `shapes`; add e.g. `shapes: {x: [1024, 512]}`"});
  CHECK(errors_of(prefix + "  - shapes: {x: [4, 0]}\n") ==
        Lines{"4:21: a dimension must be a positive integer, not `0`",
              "4:5: this entry has no `config`; add e.g. `config: {block_sizes: [256]}`"});
  CHECK(errors_of(prefix + "  - {shapes: {x: 4}, config: {}}\n") ==
        Lines{"4:18: the shape of `x` must be a list of dimensions, e.g. `[1024, 512]`, not `4`"});
  CHECK(errors_of(prefix + "  - {shapes: {x: [4]}, dtypes: {y: float32}, config: {}}\n") ==
        Lines{"4:33: dtype given for `y`, which has no entry in `shapes`"});
  CHECK(errors_of(prefix + "  - 7\n") ==
        Lines{"4:5: an entry of `configs` must be a mapping with `shapes` and `config`, not `7`"});
  DiagnosticEngine diags;
  CHECK_FALSE(parse(prefix + "  - {shapes: {x: [4]}, config: {block_sizes: [4]}}\n"
                             "  - {shapes: {x: [4]}, config: {block_sizes: [2]}}\n",
                    diags));
  CHECK(diags.render() ==
        "c.yaml:5:5: error: a second entry for the same shapes and dtypes\n"
        "    5 |   - {shapes: {x: [4]}, config: {block_sizes: [2]}}\n"
        "      |     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
        "c.yaml:4:5: note: first entry here\n"
        "    4 |   - {shapes: {x: [4]}, config: {block_sizes: [4]}}\n"
        "      |     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n");
}

TEST_CASE("duplicate keys are reported with the first one", "[config]") {
  DiagnosticEngine diags;
  CHECK_FALSE(parse("schema_version: 1\nkernel: a\nkernel: b\n", diags));
  CHECK(diags.render() ==
        "c.yaml:3:1: error: duplicate key `kernel`\n"
        "    3 | kernel: b\n"
        "      | ^~~~~~\n"
        "c.yaml:2:1: note: first given here\n"
        "    2 | kernel: a\n"
        "      | ^~~~~~\n");
}

TEST_CASE("predicted values are checked", "[config]") {
  CHECK(errors_of("schema_version: 1\nkernel: k\nconfigs:\n  - shapes: {x: [4]}\n    config: {}\n"
                  "    predicted: {time_us: fast, vmem_bytes: -1, tflops: .nan}\n") ==
        Lines{"6:26: `time_us` must be a non-negative number, not `fast`",
              "6:44: `vmem_bytes` must be a non-negative integer, not `-1`",
              "6:56: `tflops` must be a non-negative number, not `.nan`"});
}

TEST_CASE("source_sha256 must be a SHA-256", "[config]") {
  CHECK(errors_of("schema_version: 1\nkernel: k\nsource_sha256: abc\n") ==
        Lines{"3:16: `source_sha256` must be 64 hexadecimal digits (the SHA-256 of the kernel "
              "source)"});
}

TEST_CASE("columns count bytes after UTF-8 text", "[config]") {
  CHECK(
      errors_of("schema_version: 1\nkernel: k\nx-caf\xc3\xa9: {}\ndefault: {\"\xc3\xa9\": 1, "
                "block_sizes: [0]}\n") ==
      Lines{
          "4:11: unknown key `\xc3\xa9` in a config; expected one of `block_sizes`, `loop_orders`, "
          "`pallas_loop_type`, `pallas_load_buffer_count`, `pallas_pre_broadcast`, "
          "`vmem_limit_bytes` "
          "(keys of your own need the `x-` prefix)",
          "4:34: a block size must be a positive integer, not `0`"});
}

TEST_CASE("load_config_file reads files and reports unreadable ones", "[config]") {
  namespace fs = std::filesystem;
  fs::path path = fs::temp_directory_path() / "helionc_config_test.yaml";
  std::ofstream(path) << "schema_version: 1\nkernel: k\ndefault: {block_sizes: [0]}\n";
  DiagnosticEngine diags;
  CHECK_FALSE(load_config_file(path.string(), diags));
  // The SourceFile died with the failed load, but the engine kept it alive for rendering.
  CHECK(diags.render().starts_with(
      fmt::format("{}:3:25: error: a block size must be a positive integer", path.string())));
  fs::remove(path);

  DiagnosticEngine missing;
  CHECK_FALSE(load_config_file(path.string(), missing));
  CHECK(missing.render() ==
        fmt::format("helionc: error: config file: cannot open `{}`: No such file or directory\n",
                    path.string()));
  CHECK(missing.diagnostics()[0].kind == DiagnosticKind::kInputFile);
}

TEST_CASE("provenance mismatches are warnings", "[config]") {
  DiagnosticEngine diags;
  std::string sha(64, 'a');
  std::optional<ConfigFile> config = parse(
      fmt::format("schema_version: 1\nkernel: k\nsource_sha256: \"{}\"\ntarget: tpu-v5e\n", sha),
      diags);
  REQUIRE(config.has_value());
  check_config_provenance(*config, sha, "tpu-v5e", diags);
  CHECK(diags.diagnostics().empty());
  check_config_provenance(*config, std::string(64, 'b'), "tpu-v7x", diags);
  CHECK_FALSE(diags.has_errors());
  REQUIRE(diags.warning_count() == 2);
  CHECK(diags.diagnostics()[1].message ==
        "config `k` was tuned for `tpu-v5e`, not `tpu-v7x`; it is used anyway");
  CHECK(diags.render().starts_with(
      "c.yaml:3:16: warning: config `k` was tuned for another version of the kernel "
      "source; it is used anyway, re-run `--autotune` to refresh it [-Wconfig-mismatch]\n"));
}

TEST_CASE("the helionc and cost model versions are provenance too", "[config]") {
  DiagnosticEngine diags;
  std::optional<ConfigFile> config =
      parse("schema_version: 1\nkernel: k\nhelionc_version: \"0.0.9\"\nmodel_version: 7\n", diags);
  REQUIRE(config.has_value());
  CHECK(config->helionc_version == "0.0.9");
  CHECK(config->model_version == 7);
  check_config_provenance(*config, "", "", diags, "0.0.9", 7);
  CHECK(diags.diagnostics().empty());
  check_config_provenance(*config, "", "", diags, "0.1.0", 8);
  REQUIRE(diags.warning_count() == 2);
  CHECK(diags.render().find("c.yaml:3:18: warning: config `k` was tuned by helionc 0.0.9, this "
                            "is 0.1.0") != std::string::npos);
  CHECK(diags.render().find("c.yaml:4:16: warning: config `k` was predicted by cost model "
                            "version 7, this helionc's is 8") != std::string::npos);
  // Written back in place, after the target.
  const std::string text = write_config_yaml(*config);
  CHECK(text.find("kernel: \"k\"\nhelionc_version: \"0.0.9\"\nmodel_version: 7\n") !=
        std::string::npos);
  DiagnosticEngine bad;
  CHECK_FALSE(parse("schema_version: 1\nkernel: k\nmodel_version: 0\n", bad));
}
