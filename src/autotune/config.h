// Tuning configs: the YAML files of product.md §3 (`--config FILE.yaml`, written by
// `--autotune`), as plain data.
//
//   schema_version: 1
//   kernel: attention
//   source_sha256: "3f0c..."        # optional: the kernel source it was tuned for
//   target: "tpu-v7x"               # optional: the hardware it was tuned for
//   helionc_version: "0.1.0"        # optional: the helionc that tuned it (--autotune)
//   model_version: 1                # optional: the cost model its predictions come from
//   default:                        # optional: used for shapes no entry matches
//     block_sizes: [1, 128, 128]
//   configs:                        # optional: per-shape entries
//     - shapes: {q: [8, 32, 8192, 256]}
//       dtypes: {q: bfloat16}
//       config: {block_sizes: [1, 512, 512], pallas_loop_type: [unroll]}
//       predicted: {time_us: 1234.5, tflops: 812.0, vmem_bytes: 48234496, hbm_bytes: 805306368}
//       verified: {topology: "tpu7x:2x2x1", libtpu: "0.0.42.1", jax: "0.10.2", candidates: 8,
//                  compiled: 7}
//
// Key names follow Helion (helion-subset.md §6). Loading checks everything that can be checked
// without the kernel (types, ranges, names); whether block_sizes has the right length for the
// kernel is the compiler's business, which is why every value keeps its SourceRange: a late
// error still points at file:line:col in the YAML.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/diagnostics.h"
#include "support/source.h"

namespace helionc::autotune {

inline constexpr int kConfigSchemaVersion = 1;

// A YAML scalar kept as written, for values whose type only the kernel knows
// (hl.register_tunable values and `x-` extension keys).
struct ScalarValue {
  std::string text;
  bool is_string = false;  // quoted in the file, or not a number/bool: quoted again on output

  bool operator==(const ScalarValue&) const = default;
};

// One assignment of a kernel's tunables. Empty/absent fields mean "not set: the compiler
// chooses". Comparison ignores source ranges.
struct KernelConfig {
  std::vector<int64_t> block_sizes;               // each > 0, one per tunable block size
  std::vector<std::string> pallas_loop_type;      // unroll | emit_pipeline | fori_loop | grid
  bool pallas_loop_type_for_all = false;          // one entry, for every inner loop (Helion's)
  std::vector<int64_t> pallas_load_buffer_count;  // each 1..3
  std::vector<std::vector<int64_t>> loop_orders;  // each a permutation of 0..n-1
  std::optional<int64_t> vmem_limit_bytes;        // > 0
  std::optional<bool> pallas_pre_broadcast;
  // Values of keys the loader was told are tunables (ConfigParseOptions) and of `x-` keys,
  // by key as written.
  std::map<std::string, ScalarValue> tunables;

  // Where the mapping is in the file (invalid when the config was absent), and where each
  // key's value is (by key name), and each block size.
  SourceRange range;
  std::map<std::string, SourceRange> value_ranges;
  std::vector<SourceRange> block_size_ranges;

  bool operator==(const KernelConfig& other) const;
};

// The model's prediction stored next to an autotuned entry (informational).
struct Prediction {
  std::optional<double> time_us;
  std::optional<double> tflops;
  std::optional<int64_t> vmem_bytes;
  std::optional<int64_t> hbm_bytes;

  bool operator==(const Prediction&) const = default;
};

// `--search measure`: the entry's config as timed on the local JAX device (a TPU, or the CPU
// interpreter, which only tests the plumbing), with how many of the model's candidates ran.
struct Measurement {
  std::optional<double> time_us;      // the median of the runs
  std::optional<std::string> device;  // "TPU v5 lite", "cpu (interpret mode)"
  std::optional<int64_t> candidates;  // timed
  std::optional<int64_t> ok;          // of those, ran and matched the default config's output

  bool operator==(const Measurement&) const = default;
};

// `--search compile`: the TPU compiler that accepted the entry's config (libtpu, for one chip of
// a topology, as a TPU host compiles at a kernel's first call), and how many of the model's
// candidates it compiled.
struct Verification {
  std::optional<std::string> topology;  // libtpu's topology name: "tpu7x:2x2x1"
  std::optional<std::string> libtpu;    // the libtpu package's version: "0.0.42.1"
  std::optional<std::string> jax;       // JAX's (it lowers the kernel to Mosaic): "0.10.2"
  std::optional<int64_t> candidates;    // compiled for the call
  std::optional<int64_t> compiled;      // of those, accepted

  bool operator==(const Verification&) const = default;
};

// One entry of `configs:`: the config to use for calls with these shapes (and dtypes).
struct ShapeEntry {
  std::map<std::string, std::vector<int64_t>> shapes;  // parameter -> dims (each > 0)
  std::map<std::string, std::string> dtypes;           // parameter -> dtype name (32-bit or less)
  KernelConfig config;
  std::optional<Prediction> predicted;
  std::optional<Measurement> measured;
  std::optional<Verification> verified;
  // `# ...` lines written at the end of the entry (why the search turned candidates down); not
  // read back, and not compared.
  std::vector<std::string> comments;
  SourceRange range;

  bool operator==(const ShapeEntry& other) const;
};

struct ConfigFile {
  int schema_version = kConfigSchemaVersion;
  std::string kernel;
  std::optional<std::string> source_sha256;  // 64 lowercase hex digits
  std::optional<std::string> target;         // a target name; checked by whoever knows targets
  // Written by --autotune: the helionc that tuned it and the cost model's version its
  // predictions come from.
  std::optional<std::string> helionc_version;
  std::optional<int64_t> model_version;
  KernelConfig default_config;  // default_config.range.valid(): `default:` given
  std::vector<ShapeEntry> configs;
  // The YAML text the ranges point into (null for a ConfigFile built in code).
  std::shared_ptr<const SourceFile> file;
  SourceRange kernel_range, source_sha256_range, target_range, helionc_version_range,
      model_version_range;

  // Compares values only (not the file or ranges).
  bool same_values(const ConfigFile& other) const;
};

struct ConfigParseOptions {
  // Extra config keys accepted as tunables (the names of the kernel's hl.register_tunable
  // calls, once the frontend knows them). Without them such keys need the `x-` prefix.
  std::vector<std::string> tunable_names;
};

// Reads and checks a config file. Every problem is reported through `diags` at the offending
// node's file:line:col (kConfigSyntax for YAML syntax, kConfigSchema for content, kInputFile
// when the file cannot be read); returns nullopt if there was any error. The file's text stays
// alive in the diagnostics engine either way.
std::optional<ConfigFile> load_config_file(const std::string& path, DiagnosticEngine& diags,
                                           const ConfigParseOptions& options = {});

// The same for text already in memory (tests, stdin).
std::optional<ConfigFile> parse_config_text(std::shared_ptr<const SourceFile> file,
                                            DiagnosticEngine& diags,
                                            const ConfigParseOptions& options = {});

// Merges a later config file for the same kernel into `base` (several --config files: a
// hand-written override over a generated file): a `default:` in `later` replaces the base's,
// an entry of `later` replaces the base's entry for the same shapes and dtypes, and the other
// entries are added after the base's; `later`'s source_sha256 and target, when set, win.
void merge_config_file(ConfigFile& base, ConfigFile later);

// Warns (kConfigMismatch) when the config records a different kernel source hash, target,
// helionc version or cost model version than the ones compiling it; such a config is still
// used (product.md §3). Empty arguments (and a model version of 0) are not compared.
void check_config_provenance(const ConfigFile& config, std::string_view source_sha256,
                             std::string_view target, DiagnosticEngine& diags,
                             std::string_view helionc_version = {}, int64_t model_version = 0);

// What the writer knows of the kernel, to lay the YAML out for a reader (empty: not known).
struct ConfigLabels {
  // The kernel's parameters in order: shape and dtype keys follow it (others come after, by
  // name), as `--shapes x=...,y=...` names them.
  std::vector<std::string> parameters;
  // Per block size, the tiles it sizes (`tile_m`, or `tile_m/tile_n` for one shared by two):
  // written as a comment after each config, `# block_sizes: tile_m, tile_n, tile_k`.
  std::vector<std::string> block_size_tiles;
};

// The YAML text of `config`, deterministic, written with yaml-cpp's emitter (yaml_writer.h):
// keys in a fixed order (schema_version, kernel, source_sha256, target, helionc_version,
// model_version, default, configs; within a config the order of the struct), shape and dtype
// keys in `labels.parameters` order, lists and configs in flow style, every string quoted so
// other YAML readers agree on types, floats rounded to yaml_write::kSignificantDigits digits.
// `header_comment` lines, if any, come first as `# ...` comments. Reading the result back
// gives the same values (floats as rounded), and writing those again the same text.
std::string write_config_yaml(const ConfigFile& config, std::string_view header_comment = {},
                              const ConfigLabels& labels = {});

// One config as a YAML flow mapping, as write_config_yaml writes it:
// `{block_sizes: [64, 128], pallas_loop_type: ["grid"]}`.
std::string config_flow_yaml(const KernelConfig& config);

// The comment write_config_yaml puts after a config: `block_sizes: tile_m, tile_n`, or "" when
// the config has no block sizes or their tiles are not known.
std::string block_size_comment(const KernelConfig& config, const ConfigLabels& labels);

}  // namespace helionc::autotune
