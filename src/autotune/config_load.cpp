// Loading and checking tuning-config YAML (config.h). Every check reports at the offending
// node and loading goes on, so one run shows all the problems of a file.
#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <set>

#include "autotune/config.h"
#include "autotune/yaml_reader.h"
#include "ir/dtype.h"
#include "support/file_io.h"
#include "support/limits.h"

namespace helionc::autotune {

namespace {

using yaml_detail::YamlReader;

constexpr int64_t kMaxInt = INT64_MAX;
constexpr std::string_view kTopKeys[] = {"schema_version", "kernel",          "source_sha256",
                                         "target",         "helionc_version", "model_version",
                                         "default",        "configs"};
constexpr std::string_view kConfigKeys[] = {"block_sizes",          "loop_orders",
                                            "pallas_loop_type",     "pallas_load_buffer_count",
                                            "pallas_pre_broadcast", "vmem_limit_bytes"};
constexpr std::string_view kEntryKeys[] = {"shapes",    "dtypes",   "config",
                                           "predicted", "measured", "verified"};
constexpr std::string_view kMeasuredKeys[] = {"time_us", "device", "candidates", "ok"};
constexpr std::string_view kVerifiedKeys[] = {"topology", "libtpu", "jax", "candidates",
                                              "compiled"};
constexpr std::string_view kPredictedKeys[] = {"time_us", "tflops", "vmem_bytes", "hbm_bytes"};
constexpr std::string_view kLoopTypes[] = {"unroll", "emit_pipeline", "fori_loop", "grid"};
constexpr std::string_view k64BitDtypes[] = {"float64", "int64",     "uint64",    "double",
                                             "long",    "complex64", "complex128"};

bool contains(auto&& list, std::string_view name) {
  return std::find(std::begin(list), std::end(list), name) != std::end(list);
}

bool is_identifier(std::string_view name) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  return !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
         std::all_of(name.begin(), name.end(), ident);
}

class ConfigLoader {
 public:
  ConfigLoader(std::shared_ptr<const SourceFile> file, DiagnosticEngine& diags,
               const ConfigParseOptions& options)
      : file_(std::move(file)), diags_(diags), options_(options), reader_(*file_, diags) {}

  std::optional<ConfigFile> load();

 private:
  bool read_schema_version(const YAML::Node& root);
  void read_top_entry(const std::string& key, const YAML::Node& key_node, const YAML::Node& value);
  KernelConfig read_config(const YAML::Node& key, const YAML::Node& value);
  void read_config_entry(KernelConfig& config, const std::string& key, const YAML::Node& key_node,
                         const YAML::Node& value);
  void read_configs(const YAML::Node& key, const YAML::Node& value);
  ShapeEntry read_shape_entry(const YAML::Node& node);
  Prediction read_prediction(const YAML::Node& key, const YAML::Node& value);
  Measurement read_measurement(const YAML::Node& key, const YAML::Node& value);
  Verification read_verification(const YAML::Node& key, const YAML::Node& value);
  std::optional<std::string> read_dtype(const YAML::Node& node);
  std::optional<std::string> read_loop_type(const YAML::Node& node);
  std::optional<std::vector<int64_t>> read_loop_order(const YAML::Node& node);

  // `value` must be a list (a mapping); reports otherwise, with an example of the right form.
  bool expect_list(const YAML::Node& key, const YAML::Node& value, std::string_view example);
  bool expect_map(const YAML::Node& key, const YAML::Node& value, std::string_view example);
  // Reads each element of a list with `read`, keeping what reads well.
  template <typename T, typename Read>
  std::vector<T> read_list(const YAML::Node& list, Read read,
                           std::vector<SourceRange>* ranges = nullptr);

  std::shared_ptr<const SourceFile> file_;
  DiagnosticEngine& diags_;
  const ConfigParseOptions& options_;
  YamlReader reader_;
  ConfigFile result_;
  bool has_kernel_ = false;
};

std::optional<ConfigFile> ConfigLoader::load() {
  int errors_before = diags_.error_count();
  std::optional<yaml_detail::ParsedDocument> document = [&]() -> decltype(document) {
    try {
      return yaml_detail::parse_single_document(file_->text());
    } catch (const YAML::Exception& e) {
      diags_.error(DiagnosticKind::kConfigSyntax, reader_.range_at(e.mark),
                   "invalid YAML: " + e.msg);
      return std::nullopt;
    }
  }();
  if (!document) return std::nullopt;
  const YAML::Node& root = document->root;
  if (root.IsNull()) {
    reader_.error(file_->range(0, 0),
                  "empty config file; expected `schema_version: 1` and `kernel: NAME`");
    return std::nullopt;
  }
  if (document->second_document) {
    reader_.error(reader_.range_at(*document->second_document),
                  "a config file holds one YAML document; this is a second one");
  }
  if (!root.IsMap()) {
    reader_.error(reader_.range_of(root),
                  fmt::format("a config file must be a mapping with `schema_version: 1` and "
                              "`kernel: NAME`, not {}",
                              reader_.describe(root)));
    return std::nullopt;
  }
  // The version decides how to read the rest: stop at a version this helionc does not read.
  if (!read_schema_version(root)) return std::nullopt;
  result_.file = file_;
  reader_.for_each_entry(
      root, [&](const std::string& key, const YAML::Node& key_node, const YAML::Node& value) {
        read_top_entry(key, key_node, value);
      });
  if (!has_kernel_) {
    reader_.error(reader_.range_of(root),
                  "missing `kernel`; add `kernel: NAME` naming the kernel these configs tune");
  }
  if (diags_.error_count() > errors_before) return std::nullopt;
  return std::move(result_);
}

bool ConfigLoader::read_schema_version(const YAML::Node& root) {
  // Entries are bound by value: yaml-cpp's `it->second` refers into a temporary proxy.
  for (const auto& entry : root) {
    const YAML::Node key = entry.first;
    const YAML::Node value = entry.second;
    if (!key.IsScalar() || key.Scalar() != "schema_version") continue;
    std::optional<int64_t> version = YamlReader::as_int(value);
    if (!version) {
      reader_.error(
          reader_.value_range(key, value),
          fmt::format("`schema_version` must be an integer, not {}", reader_.describe(value)));
      return false;
    }
    if (*version != kConfigSchemaVersion) {
      reader_.error(reader_.range_of(value),
                    fmt::format("unsupported `schema_version` {}; this helionc reads version {}",
                                *version, kConfigSchemaVersion));
      return false;
    }
    result_.schema_version = kConfigSchemaVersion;
    return true;
  }
  reader_.error(reader_.range_of(root), "missing `schema_version`; add `schema_version: 1`");
  return false;
}

void ConfigLoader::read_top_entry(const std::string& key, const YAML::Node& key_node,
                                  const YAML::Node& value) {
  if (key == "schema_version" || key.starts_with("x-")) return;
  if (key == "kernel") {
    has_kernel_ = true;
    result_.kernel_range = reader_.value_range(key_node, value);
    std::optional<std::string> name = reader_.read_string(value, "kernel");
    if (name && !is_identifier(*name)) {
      reader_.error(result_.kernel_range,
                    fmt::format("`kernel` must be the name of a kernel function, not `{}`", *name));
    }
    if (name) result_.kernel = *name;
  } else if (key == "source_sha256") {
    result_.source_sha256_range = reader_.value_range(key_node, value);
    std::optional<std::string> hash = reader_.read_string(value, "source_sha256");
    if (!hash) return;
    std::transform(hash->begin(), hash->end(), hash->begin(), [](char c) {
      return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    });
    if (hash->size() != 64 || hash->find_first_not_of("0123456789abcdef") != std::string::npos) {
      reader_.error(
          result_.source_sha256_range,
          "`source_sha256` must be 64 hexadecimal digits (the SHA-256 of the kernel source)");
      return;
    }
    result_.source_sha256 = *hash;
  } else if (key == "target") {
    result_.target_range = reader_.value_range(key_node, value);
    if (std::optional<std::string> target = reader_.read_string(value, "target")) {
      result_.target = *target;
    }
  } else if (key == "helionc_version") {
    result_.helionc_version_range = reader_.value_range(key_node, value);
    if (std::optional<std::string> version = reader_.read_string(value, "helionc_version")) {
      result_.helionc_version = *version;
    }
  } else if (key == "model_version") {
    result_.model_version_range = reader_.value_range(key_node, value);
    result_.model_version =
        reader_.read_int(value, "`model_version`", 1, INT64_MAX, "a positive integer");
  } else if (key == "default") {
    result_.default_config = read_config(key_node, value);
  } else if (key == "configs") {
    read_configs(key_node, value);
  } else {
    reader_.unknown_key(key_node, key, "a config file", kTopKeys);
  }
}

bool ConfigLoader::expect_list(const YAML::Node& key, const YAML::Node& value,
                               std::string_view example) {
  if (value.IsSequence()) return true;
  reader_.error(reader_.value_range(key, value),
                fmt::format("`{}` must be a list, e.g. `{}`, not {}", key.Scalar(), example,
                            reader_.describe(value)));
  return false;
}

bool ConfigLoader::expect_map(const YAML::Node& key, const YAML::Node& value,
                              std::string_view example) {
  if (value.IsMap()) return true;
  reader_.error(reader_.value_range(key, value),
                fmt::format("`{}` must be a mapping, e.g. `{}`, not {}", key.Scalar(), example,
                            reader_.describe(value)));
  return false;
}

template <typename T, typename Read>
std::vector<T> ConfigLoader::read_list(const YAML::Node& list, Read read,
                                       std::vector<SourceRange>* ranges) {
  std::vector<T> values;
  for (const YAML::Node& element : list) {
    std::optional<T> value = read(element);
    if (!value) continue;
    values.push_back(std::move(*value));
    if (ranges != nullptr) ranges->push_back(reader_.range_of(element));
  }
  return values;
}

KernelConfig ConfigLoader::read_config(const YAML::Node& key, const YAML::Node& value) {
  KernelConfig config;
  config.range = reader_.value_range(key, value);
  if (!expect_map(key, value, "{block_sizes: [64, 128]}")) return config;
  reader_.for_each_entry(
      value, [&](const std::string& config_key, const YAML::Node& config_key_node,
                 const YAML::Node& config_value) {
        config.value_ranges[config_key] = reader_.value_range(config_key_node, config_value);
        read_config_entry(config, config_key, config_key_node, config_value);
      });
  return config;
}

void ConfigLoader::read_config_entry(KernelConfig& config, const std::string& key,
                                     const YAML::Node& key_node, const YAML::Node& value) {
  auto read_int = [&](std::string_view what, int64_t min, int64_t max,
                      std::string_view expectation) {
    return [=, this](const YAML::Node& node) {
      return reader_.read_int(node, what, min, max, expectation);
    };
  };
  if (key == "block_sizes") {
    if (expect_list(key_node, value, "[64, 128]")) {
      config.block_sizes =
          read_list<int64_t>(value, read_int("a block size", 1, kMaxInt, "a positive integer"),
                             &config.block_size_ranges);
    }
  } else if (key == "pallas_loop_type") {
    if (expect_list(key_node, value, "[emit_pipeline]")) {
      config.pallas_loop_type =
          read_list<std::string>(value, [&](const YAML::Node& n) { return read_loop_type(n); });
    }
  } else if (key == "pallas_load_buffer_count") {
    if (expect_list(key_node, value, "[2, 2]")) {
      config.pallas_load_buffer_count =
          read_list<int64_t>(value, read_int("a buffer count", 1, 3, "1, 2 or 3"));
    }
  } else if (key == "loop_orders") {
    if (expect_list(key_node, value, "[[1, 0]]")) {
      config.loop_orders = read_list<std::vector<int64_t>>(
          value, [&](const YAML::Node& n) { return read_loop_order(n); });
    }
  } else if (key == "vmem_limit_bytes") {
    config.vmem_limit_bytes =
        reader_.read_int(value, "`vmem_limit_bytes`", 1, kMaxInt, "a positive integer");
  } else if (key == "pallas_pre_broadcast") {
    config.pallas_pre_broadcast = YamlReader::as_bool(value);
    if (!config.pallas_pre_broadcast) {
      reader_.error(reader_.value_range(key_node, value),
                    fmt::format("`pallas_pre_broadcast` must be `true` or `false`, not {}",
                                reader_.describe(value)));
    }
  } else if (key.starts_with("x-") || contains(options_.tunable_names, key)) {
    if (!value.IsScalar()) {
      if (key.starts_with("x-")) return;  // an extension we do not understand: ignored
      reader_.error(
          reader_.value_range(key_node, value),
          fmt::format("tunable `{}` must be a single value, not {}", key, reader_.describe(value)));
      return;
    }
    bool is_string = !YamlReader::is_plain(value) ||
                     (!YamlReader::as_number(value) && !YamlReader::as_bool(value));
    config.tunables[key] = {value.Scalar(), is_string};
  } else {
    reader_.unknown_key(key_node, key, "a config", kConfigKeys);
  }
}

std::optional<std::string> ConfigLoader::read_loop_type(const YAML::Node& node) {
  if (node.IsScalar() && contains(kLoopTypes, node.Scalar())) return node.Scalar();
  reader_.error(
      reader_.range_of(node),
      fmt::format("unknown loop type {}; expected `unroll`, `emit_pipeline`, `fori_loop` or `grid`",
                  reader_.describe(node)));
  return std::nullopt;
}

std::optional<std::vector<int64_t>> ConfigLoader::read_loop_order(const YAML::Node& node) {
  SourceRange range = reader_.range_of(node);
  if (!node.IsSequence()) {
    reader_.error(
        range, fmt::format("a loop order must be a list of grid dimensions, e.g. `[1, 0]`, not {}",
                           reader_.describe(node)));
    return std::nullopt;
  }
  size_t errors = static_cast<size_t>(diags_.error_count());
  std::vector<int64_t> order = read_list<int64_t>(node, [&](const YAML::Node& n) {
    return reader_.read_int(n, "a loop order entry", 0, kMaxInt, "a non-negative integer");
  });
  if (static_cast<size_t>(diags_.error_count()) > errors) return std::nullopt;
  std::vector<int64_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i] != static_cast<int64_t>(i)) {
      reader_.error(range, fmt::format("loop order `{}` must be a permutation of 0..{}",
                                       file_->text_of(range), order.size() - 1));
      return std::nullopt;
    }
  }
  return order;
}

std::optional<std::string> ConfigLoader::read_dtype(const YAML::Node& node) {
  if (!node.IsScalar()) {
    reader_.error(
        reader_.range_of(node),
        fmt::format("a dtype must be a name like `bfloat16`, not {}", reader_.describe(node)));
    return std::nullopt;
  }
  std::string_view name = node.Scalar();
  // The names --autotune writes (ir::dtype_name), 8-bit floats included.
  if (ir::dtype_from_name(name)) return std::string(name);
  std::string_view bare = name;
  for (std::string_view prefix : {"torch.", "jnp.", "np."}) {
    if (bare.starts_with(prefix)) bare.remove_prefix(prefix.size());
  }
  if (contains(k64BitDtypes, bare)) {
    std::string_view hint = bare.starts_with("int") || bare == "long" ? "int32" : "float32";
    reader_.error(
        reader_.range_of(node),
        fmt::format("64-bit dtype `{}` is not supported: TPUs have no 64-bit types; use `{}`", name,
                    hint));
  } else if (bare != name && ir::dtype_from_name(bare)) {
    reader_.error(reader_.range_of(node), fmt::format("write dtype `{}` as `{}`", name, bare));
  } else {
    reader_.error(reader_.range_of(node),
                  fmt::format("unknown dtype `{}`; expected one of {}", name, ir::dtype_names()));
  }
  return std::nullopt;
}

void ConfigLoader::read_configs(const YAML::Node& key, const YAML::Node& value) {
  if (!expect_list(key, value, "[{shapes: {x: [1024, 512]}, config: {block_sizes: [256, 512]}}]")) {
    return;
  }
  // Two entries for the same shapes and dtypes would make the choice ambiguous.
  std::map<
      std::pair<std::map<std::string, std::vector<int64_t>>, std::map<std::string, std::string>>,
      SourceRange>
      seen;
  for (const YAML::Node& node : value) {
    ShapeEntry entry = read_shape_entry(node);
    auto [previous, inserted] = seen.emplace(std::pair(entry.shapes, entry.dtypes), entry.range);
    if (!inserted && node.IsMap()) {
      reader_.error(entry.range, "a second entry for the same shapes and dtypes")
          .note(previous->second, "first entry here");
    }
    result_.configs.push_back(std::move(entry));
  }
}

ShapeEntry ConfigLoader::read_shape_entry(const YAML::Node& node) {
  ShapeEntry entry;
  entry.range = reader_.range_of(node);
  if (!node.IsMap()) {
    reader_.error(entry.range,
                  fmt::format("an entry of `configs` must be a mapping with `shapes` and "
                              "`config`, not {}",
                              reader_.describe(node)));
    return entry;
  }
  bool has_shapes = false, has_config = false;
  std::vector<std::pair<std::string, SourceRange>> dtype_names;
  reader_.for_each_entry(
      node, [&](const std::string& key, const YAML::Node& key_node, const YAML::Node& value) {
        if (key == "shapes") {
          has_shapes = true;
          if (!expect_map(key_node, value, "{x: [1024, 512]}")) return;
          reader_.for_each_entry(value, [&](const std::string& name, const YAML::Node& name_node,
                                            const YAML::Node& dims) {
            if (!dims.IsSequence()) {
              reader_.error(
                  reader_.value_range(name_node, dims),
                  fmt::format(
                      "the shape of `{}` must be a list of dimensions, e.g. `[1024, 512]`, not {}",
                      name, reader_.describe(dims)));
              return;
            }
            entry.shapes[name] = read_list<int64_t>(dims, [&](const YAML::Node& n) {
              return reader_.read_int(n, "a dimension", 1, kMaxInt, "a positive integer");
            });
          });
        } else if (key == "dtypes") {
          if (!expect_map(key_node, value, "{x: bfloat16}")) return;
          reader_.for_each_entry(value, [&](const std::string& name, const YAML::Node& name_node,
                                            const YAML::Node& dtype) {
            dtype_names.emplace_back(name, reader_.range_of(name_node));
            if (std::optional<std::string> checked = read_dtype(dtype)) {
              entry.dtypes[name] = *checked;
            }
          });
        } else if (key == "config") {
          has_config = true;
          entry.config = read_config(key_node, value);
        } else if (key == "predicted") {
          entry.predicted = read_prediction(key_node, value);
        } else if (key == "measured") {
          entry.measured = read_measurement(key_node, value);
        } else if (key == "verified") {
          entry.verified = read_verification(key_node, value);
        } else if (!key.starts_with("x-")) {
          reader_.unknown_key(key_node, key, "a `configs` entry", kEntryKeys);
        }
      });
  if (!has_shapes) {
    reader_.error(entry.range, "this entry has no `shapes`; add e.g. `shapes: {x: [1024, 512]}`");
  }
  if (!has_config) {
    reader_.error(entry.range,
                  "this entry has no `config`; add e.g. `config: {block_sizes: [256]}`");
  }
  for (const auto& [name, range] : dtype_names) {
    if (has_shapes && !entry.shapes.contains(name)) {
      reader_.error(range,
                    fmt::format("dtype given for `{}`, which has no entry in `shapes`", name));
    }
  }
  return entry;
}

Prediction ConfigLoader::read_prediction(const YAML::Node& key, const YAML::Node& value) {
  Prediction prediction;
  if (!expect_map(key, value, "{time_us: 12.5}")) return prediction;
  reader_.for_each_entry(
      value, [&](const std::string& name, const YAML::Node& name_node, const YAML::Node& number) {
        if (name == "time_us" || name == "tflops") {
          std::optional<double> parsed = YamlReader::as_number(number);
          if (!parsed || *parsed < 0) {
            reader_.error(reader_.value_range(name_node, number),
                          fmt::format("`{}` must be a non-negative number, not {}", name,
                                      reader_.describe(number)));
            return;
          }
          (name == "time_us" ? prediction.time_us : prediction.tflops) = parsed;
        } else if (name == "vmem_bytes" || name == "hbm_bytes") {
          std::optional<int64_t> parsed = reader_.read_int(number, fmt::format("`{}`", name), 0,
                                                           kMaxInt, "a non-negative integer");
          if (parsed) {
            (name == "vmem_bytes" ? prediction.vmem_bytes : prediction.hbm_bytes) = parsed;
          }
        } else if (!name.starts_with("x-")) {
          reader_.unknown_key(name_node, name, "`predicted`", kPredictedKeys);
        }
      });
  return prediction;
}

Measurement ConfigLoader::read_measurement(const YAML::Node& key, const YAML::Node& value) {
  Measurement measurement;
  if (!expect_map(key, value, "{time_us: 12.5, device: \"TPU v5 lite\"}")) return measurement;
  reader_.for_each_entry(value, [&](const std::string& name, const YAML::Node& name_node,
                                    const YAML::Node& item) {
    if (name == "time_us") {
      std::optional<double> parsed = YamlReader::as_number(item);
      if (!parsed || *parsed < 0) {
        reader_.error(
            reader_.value_range(name_node, item),
            fmt::format("`time_us` must be a non-negative number, not {}", reader_.describe(item)));
        return;
      }
      measurement.time_us = parsed;
    } else if (name == "device") {
      measurement.device = reader_.read_string(item, "`device`");
    } else if (name == "candidates" || name == "ok") {
      std::optional<int64_t> parsed =
          reader_.read_int(item, fmt::format("`{}`", name), 0, kMaxInt, "a non-negative integer");
      (name == "ok" ? measurement.ok : measurement.candidates) = parsed;
    } else if (!name.starts_with("x-")) {
      reader_.unknown_key(name_node, name, "`measured`", kMeasuredKeys);
    }
  });
  return measurement;
}

Verification ConfigLoader::read_verification(const YAML::Node& key, const YAML::Node& value) {
  Verification verification;
  if (!expect_map(key, value, "{topology: \"tpu7x:2x2x1\", libtpu: \"0.0.42.1\"}")) {
    return verification;
  }
  reader_.for_each_entry(
      value, [&](const std::string& name, const YAML::Node& name_node, const YAML::Node& item) {
        if (name == "topology" || name == "libtpu" || name == "jax") {
          (name == "topology" ? verification.topology
           : name == "libtpu" ? verification.libtpu
                              : verification.jax) =
              reader_.read_string(item, fmt::format("`{}`", name));
        } else if (name == "candidates" || name == "compiled") {
          (name == "compiled" ? verification.compiled : verification.candidates) = reader_.read_int(
              item, fmt::format("`{}`", name), 0, kMaxInt, "a non-negative integer");
        } else if (!name.starts_with("x-")) {
          reader_.unknown_key(name_node, name, "`verified`", kVerifiedKeys);
        }
      });
  return verification;
}

}  // namespace

std::optional<ConfigFile> parse_config_text(std::shared_ptr<const SourceFile> file,
                                            DiagnosticEngine& diags,
                                            const ConfigParseOptions& options) {
  diags.keep_alive(file);  // diagnostics point into it even if loading fails
  return ConfigLoader(std::move(file), diags, options).load();
}

std::optional<ConfigFile> load_config_file(const std::string& path, DiagnosticEngine& diags,
                                           const ConfigParseOptions& options) {
  Expected<std::string> text = read_file(path, limits::kMaxConfigBytes);
  if (!text) {
    diags.error(DiagnosticKind::kInputFile, {}, fmt::format("config file: {}", text.error()));
    return std::nullopt;
  }
  if (text->size() > limits::kMaxConfigBytes) {
    diags.error(DiagnosticKind::kLimitExceeded, {},
                fmt::format("config file `{}` is longer than {} bytes ({} MiB), the most helionc "
                            "reads for a config",
                            path == "-" ? "<stdin>" : path, limits::kMaxConfigBytes,
                            limits::kMaxConfigBytes >> 20));
    return std::nullopt;
  }
  auto file = std::make_shared<const SourceFile>(path == "-" ? "<stdin>" : path, std::move(*text));
  return parse_config_text(std::move(file), diags, options);
}

}  // namespace helionc::autotune
