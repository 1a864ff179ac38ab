// Writing tuning configs as YAML (config.h) with yaml-cpp's emitter; the quoting, key and float
// rules are yaml_writer.h's.
#include <fmt/format.h>

#include <algorithm>

#include "autotune/config.h"
#include "autotune/yaml_writer.h"

namespace helionc::autotune {

namespace yw = yaml_write;

std::string config_flow_yaml(const KernelConfig& config) {
  YAML::Emitter out;
  yw::setup(out);
  yw::config(out, config);
  return out.c_str();
}

std::string block_size_comment(const KernelConfig& config, const ConfigLabels& labels) {
  if (config.block_sizes.empty() || labels.block_size_tiles.size() != config.block_sizes.size()) {
    return "";
  }
  return fmt::format("block_sizes: {}", fmt::join(labels.block_size_tiles, ", "));
}

namespace {

bool is_empty(const KernelConfig& config) { return config == KernelConfig{}; }

// The keys of a per-parameter map in the kernel's parameter order, then any others by name.
template <typename Value>
std::vector<std::string_view> parameter_order(const std::map<std::string, Value>& map,
                                              const ConfigLabels& labels) {
  std::vector<std::string_view> keys;
  for (const std::string& name : labels.parameters) {
    if (map.count(name) > 0) keys.push_back(name);
  }
  for (const auto& [name, value] : map) {
    if (std::find(keys.begin(), keys.end(), name) == keys.end()) keys.push_back(name);
  }
  return keys;
}

// `{x: [4096, 4096], y: [4096]}` or `{x: "bfloat16"}`, in parameter order.
template <typename Value, typename Write>
void parameter_map(YAML::Emitter& out, const std::map<std::string, Value>& map,
                   const ConfigLabels& labels, Write write) {
  const std::vector<std::string_view> keys = parameter_order(map, labels);
  if (!yw::any_explicit_key(keys)) out << YAML::Flow;
  out << YAML::BeginMap;
  for (std::string_view name : keys) {
    yw::key(out, name);
    write(map.find(std::string(name))->second);
  }
  out << YAML::EndMap;
}

// `key: {...}` for a config, with its tiles as a comment after it.
void labelled_config(YAML::Emitter& out, std::string_view key, const KernelConfig& config,
                     const ConfigLabels& labels) {
  yw::key(out, key);
  yw::config(out, config);
  const std::string tiles = block_size_comment(config, labels);
  if (!tiles.empty()) yw::comment(out, tiles);
}

void predicted(YAML::Emitter& out, const Prediction& p) {
  yw::key(out, "predicted");
  out << YAML::Flow << YAML::BeginMap;
  if (p.time_us) {
    yw::key(out, "time_us");
    yw::real(out, *p.time_us);
  }
  if (p.tflops) {
    yw::key(out, "tflops");
    yw::real(out, *p.tflops);
  }
  if (p.vmem_bytes) {
    yw::key(out, "vmem_bytes");
    out << *p.vmem_bytes;
  }
  if (p.hbm_bytes) {
    yw::key(out, "hbm_bytes");
    out << *p.hbm_bytes;
  }
  out << YAML::EndMap;
}

void measured(YAML::Emitter& out, const Measurement& m) {
  yw::key(out, "measured");
  out << YAML::Flow << YAML::BeginMap;
  if (m.time_us) {
    yw::key(out, "time_us");
    yw::real(out, *m.time_us);
  }
  if (m.device) {
    yw::key(out, "device");
    yw::string(out, *m.device);
  }
  if (m.candidates) {
    yw::key(out, "candidates");
    out << *m.candidates;
  }
  if (m.ok) {
    yw::key(out, "ok");
    out << *m.ok;
  }
  out << YAML::EndMap;
}

void verified(YAML::Emitter& out, const Verification& v) {
  yw::key(out, "verified");
  out << YAML::Flow << YAML::BeginMap;
  if (v.topology) {
    yw::key(out, "topology");
    yw::string(out, *v.topology);
  }
  if (v.libtpu) {
    yw::key(out, "libtpu");
    yw::string(out, *v.libtpu);
  }
  if (v.jax) {
    yw::key(out, "jax");
    yw::string(out, *v.jax);
  }
  if (v.candidates) {
    yw::key(out, "candidates");
    out << *v.candidates;
  }
  if (v.compiled) {
    yw::key(out, "compiled");
    out << *v.compiled;
  }
  out << YAML::EndMap;
}

void entry(YAML::Emitter& out, const ShapeEntry& entry, const ConfigLabels& labels) {
  out << YAML::BeginMap;
  yw::key(out, "shapes");
  parameter_map(out, entry.shapes, labels,
                [&](const std::vector<int64_t>& dims) { yw::int_list(out, dims); });
  if (!entry.dtypes.empty()) {
    yw::key(out, "dtypes");
    parameter_map(out, entry.dtypes, labels,
                  [&](const std::string& dtype) { yw::string(out, dtype); });
  }
  labelled_config(out, "config", entry.config, labels);
  if (entry.predicted) predicted(out, *entry.predicted);
  if (entry.measured) measured(out, *entry.measured);
  if (entry.verified) verified(out, *entry.verified);
  out << YAML::EndMap;
  // The emitter writes comments of their own line at the start of the line.
  for (const std::string& text : entry.comments) {
    out << YAML::Newline;
    yw::comment(out, text);
  }
}

}  // namespace

std::string write_config_yaml(const ConfigFile& config, std::string_view header_comment,
                              const ConfigLabels& labels) {
  YAML::Emitter out;
  yw::setup(out);
  if (!header_comment.empty()) yw::comment(out, header_comment);
  out << YAML::BeginMap;
  yw::key(out, "schema_version");
  out << config.schema_version;
  yw::key(out, "kernel");
  yw::string(out, config.kernel);
  if (config.source_sha256) {
    yw::key(out, "source_sha256");
    yw::string(out, *config.source_sha256);
  }
  if (config.target) {
    yw::key(out, "target");
    yw::string(out, *config.target);
  }
  if (config.helionc_version) {
    yw::key(out, "helionc_version");
    yw::string(out, *config.helionc_version);
  }
  if (config.model_version) {
    yw::key(out, "model_version");
    out << *config.model_version;
  }
  if (!is_empty(config.default_config)) {
    labelled_config(out, "default", config.default_config, labels);
  }
  if (!config.configs.empty()) {
    yw::key(out, "configs");
    out << YAML::BeginSeq;
    for (const ShapeEntry& e : config.configs) entry(out, e, labels);
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
  return yw::document(out);
}

}  // namespace helionc::autotune
