// Writing tuning configs as YAML (config.h): deterministic, flow-style lists, strings quoted.
#include <fmt/core.h>

#include <algorithm>
#include <cctype>

#include "autotune/config.h"
#include "support/quote.h"

namespace helionc::autotune {

namespace {

// Keys stay plain when every YAML reader would read them back as the same string.
std::string key(std::string_view name) {
  auto plain_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  };
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return static_cast<char>(std::tolower(c)); });
  static constexpr std::string_view kSpecial[] = {"true", "false", "null", "yes", "no",
                                                  "on",   "off",   "y",    "n",   "~"};
  bool plain = !name.empty() &&
               (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
               std::all_of(name.begin(), name.end(), plain_char) &&
               std::find(std::begin(kSpecial), std::end(kSpecial), lower) == std::end(kSpecial);
  std::string text = plain ? std::string(name) : double_quoted(name);
  // YAML allows an implicit key (`key: value`) of at most 1024 characters and yaml-cpp holds to
  // it (1,030 fail); a longer one, e.g. a name of escaped bytes or one read from an explicit
  // key, is written explicit (`? key: value`), which has no limit.
  constexpr size_t kMaxImplicitKey = 1000;
  return text.size() <= kMaxImplicitKey ? text : "? " + text;
}

// Shortest text that reads back as the same double, always with a `.`, `e` or exponent so
// that it stays a float.
std::string number(double value) {
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

template <typename T, typename Format>
std::string flow_list(const std::vector<T>& values, Format format) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + format(values[i]);
  return out + "]";
}

std::string int_list(const std::vector<int64_t>& values) {
  return flow_list(values, [](int64_t v) { return fmt::format("{}", v); });
}

// `{key: value, ...}` from entries already formatted.
std::string flow_map(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string out = "{";
  for (size_t i = 0; i < entries.size(); ++i) {
    out += fmt::format("{}{}: {}", i ? ", " : "", key(entries[i].first), entries[i].second);
  }
  return out + "}";
}

}  // namespace

std::string config_flow_yaml(const KernelConfig& config) {
  std::vector<std::pair<std::string, std::string>> entries;
  if (!config.block_sizes.empty()) {
    entries.emplace_back("block_sizes", int_list(config.block_sizes));
  }
  if (!config.pallas_loop_type.empty()) {
    entries.emplace_back("pallas_loop_type", flow_list(config.pallas_loop_type, double_quoted));
  }
  if (!config.pallas_load_buffer_count.empty()) {
    entries.emplace_back("pallas_load_buffer_count", int_list(config.pallas_load_buffer_count));
  }
  if (!config.loop_orders.empty()) {
    entries.emplace_back("loop_orders", flow_list(config.loop_orders, int_list));
  }
  if (config.vmem_limit_bytes) {
    entries.emplace_back("vmem_limit_bytes", fmt::format("{}", *config.vmem_limit_bytes));
  }
  if (config.pallas_pre_broadcast) {
    entries.emplace_back("pallas_pre_broadcast", *config.pallas_pre_broadcast ? "true" : "false");
  }
  for (const auto& [name, value] : config.tunables) {
    entries.emplace_back(name, value.is_string ? double_quoted(value.text) : value.text);
  }
  return flow_map(entries);
}

namespace {

bool is_empty(const KernelConfig& config) { return config == KernelConfig{}; }

// Each line of each text as a `# ` comment line after `indent`.
std::string comment_lines(const std::vector<std::string>& texts, std::string_view indent) {
  std::string out;
  for (std::string_view text : texts) {
    while (!text.empty()) {
      size_t newline = text.find('\n');
      std::string_view line = text.substr(0, newline);
      out += line.empty() ? fmt::format("{}#\n", indent) : fmt::format("{}# {}\n", indent, line);
      text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    }
  }
  return out;
}

}  // namespace

std::string write_config_yaml(const ConfigFile& config, std::string_view header_comment) {
  std::string out = comment_lines({std::string(header_comment)}, "");
  out += fmt::format("schema_version: {}\n", config.schema_version);
  out += fmt::format("kernel: {}\n", double_quoted(config.kernel));
  if (config.source_sha256)
    out += fmt::format("source_sha256: {}\n", double_quoted(*config.source_sha256));
  if (config.target) out += fmt::format("target: {}\n", double_quoted(*config.target));
  if (config.helionc_version) {
    out += fmt::format("helionc_version: {}\n", double_quoted(*config.helionc_version));
  }
  if (config.model_version) out += fmt::format("model_version: {}\n", *config.model_version);
  if (!is_empty(config.default_config)) {
    out += fmt::format("default: {}\n", config_flow_yaml(config.default_config));
  }
  if (config.configs.empty()) return out;
  out += "configs:\n";
  for (const ShapeEntry& entry : config.configs) {
    std::vector<std::pair<std::string, std::string>> shapes, dtypes;
    for (const auto& [name, dims] : entry.shapes) shapes.emplace_back(name, int_list(dims));
    for (const auto& [name, dtype] : entry.dtypes) dtypes.emplace_back(name, double_quoted(dtype));
    out += fmt::format("  - shapes: {}\n", flow_map(shapes));
    if (!dtypes.empty()) out += fmt::format("    dtypes: {}\n", flow_map(dtypes));
    out += fmt::format("    config: {}\n", config_flow_yaml(entry.config));
    if (entry.predicted) {
      const Prediction& p = *entry.predicted;
      std::vector<std::pair<std::string, std::string>> predicted;
      if (p.time_us) predicted.emplace_back("time_us", number(*p.time_us));
      if (p.tflops) predicted.emplace_back("tflops", number(*p.tflops));
      if (p.vmem_bytes) predicted.emplace_back("vmem_bytes", fmt::format("{}", *p.vmem_bytes));
      if (p.hbm_bytes) predicted.emplace_back("hbm_bytes", fmt::format("{}", *p.hbm_bytes));
      out += fmt::format("    predicted: {}\n", flow_map(predicted));
    }
    if (entry.measured) {
      const Measurement& m = *entry.measured;
      std::vector<std::pair<std::string, std::string>> measured;
      if (m.time_us) measured.emplace_back("time_us", number(*m.time_us));
      if (m.device) measured.emplace_back("device", double_quoted(*m.device));
      if (m.candidates) measured.emplace_back("candidates", fmt::format("{}", *m.candidates));
      if (m.ok) measured.emplace_back("ok", fmt::format("{}", *m.ok));
      out += fmt::format("    measured: {}\n", flow_map(measured));
    }
    if (entry.verified) {
      const Verification& v = *entry.verified;
      std::vector<std::pair<std::string, std::string>> verified;
      if (v.topology) verified.emplace_back("topology", double_quoted(*v.topology));
      if (v.libtpu) verified.emplace_back("libtpu", double_quoted(*v.libtpu));
      if (v.jax) verified.emplace_back("jax", double_quoted(*v.jax));
      if (v.candidates) verified.emplace_back("candidates", fmt::format("{}", *v.candidates));
      if (v.compiled) verified.emplace_back("compiled", fmt::format("{}", *v.compiled));
      out += fmt::format("    verified: {}\n", flow_map(verified));
    }
    out += comment_lines(entry.comments, "    ");
  }
  return out;
}

}  // namespace helionc::autotune
