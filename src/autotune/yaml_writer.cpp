#include "autotune/yaml_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "support/quote.h"

namespace helionc::autotune::yaml_write {

std::string rounded_float(double value) {
  if (!std::isfinite(value)) return std::isnan(value) ? ".nan" : value > 0 ? ".inf" : "-.inf";
  // `{:.3e}` rounds to 4 significant digits in decimal; the double nearest that decimal prints
  // back as it (fmt's `{}` is the shortest text that reads back as the same double).
  const double rounded =
      std::strtod(fmt::format("{:.{}e}", value, kSignificantDigits - 1).c_str(), nullptr);
  std::string text = fmt::format("{}", rounded);
  const size_t exponent = text.find('e');
  const std::string_view mantissa = std::string_view(text).substr(0, exponent);
  if (mantissa.find('.') == std::string_view::npos) {
    text.insert(exponent == std::string::npos ? text.size() : exponent, ".0");
  }
  return text;
}

void setup(YAML::Emitter& out) {
  out.SetIndent(2);
  out.SetOutputCharset(YAML::EscapeNonAscii);
  out.SetNullFormat(YAML::LowerNull);
  out.SetBoolFormat(YAML::TrueFalseBool);
  out.SetBoolFormat(YAML::LowerCase);
}

std::string document(const YAML::Emitter& out) {
  // The emitter writes an empty comment line as `# `; no other line of ours ends in a space (a
  // string's spaces are inside its quotes), so trailing spaces go.
  std::string text;
  std::string_view rest = out.c_str();
  while (!rest.empty()) {
    const size_t newline = rest.find('\n');
    std::string_view line = rest.substr(0, newline);
    while (!line.empty() && line.back() == ' ') line.remove_suffix(1);
    text += line;
    text += '\n';
    rest.remove_prefix(newline == std::string_view::npos ? rest.size() : newline + 1);
  }
  return text;
}

namespace {

// Keys stay plain when every YAML reader reads them back as the same string: letters, digits,
// `_` and `-`, starting with a letter or `_`, and not one of YAML 1.1's booleans and nulls.
bool plain_key(std::string_view name) {
  auto plain_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  };
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return static_cast<char>(std::tolower(c)); });
  static constexpr std::string_view kSpecial[] = {"true", "false", "null", "yes", "no",
                                                  "on",   "off",   "y",    "n",   "~"};
  return !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
         std::all_of(name.begin(), name.end(), plain_char) &&
         std::find(std::begin(kSpecial), std::end(kSpecial), lower) == std::end(kSpecial);
}

}  // namespace

bool needs_explicit_key(std::string_view name) {
  // Measured on the escaped text, as the emitter writes it (`\x0b` is 4 characters), with room
  // for the quotes and `: `.
  constexpr size_t kMaxImplicitKey = 1000;
  return (plain_key(name) ? name.size() : double_quoted(name).size()) > kMaxImplicitKey;
}

bool any_explicit_key(const std::vector<std::string_view>& names) {
  return std::any_of(names.begin(), names.end(), needs_explicit_key);
}

void key(YAML::Emitter& out, std::string_view name) {
  if (needs_explicit_key(name)) out << YAML::LongKey;
  out << YAML::Key;
  if (!plain_key(name)) out << YAML::DoubleQuoted;
  out << std::string(name);
}

void string(YAML::Emitter& out, std::string_view text) {
  out << YAML::DoubleQuoted << std::string(text);
}

void real(YAML::Emitter& out, double value) { out << rounded_float(value); }

void int_list(YAML::Emitter& out, const std::vector<int64_t>& values) {
  out << YAML::Flow << YAML::BeginSeq;
  for (int64_t value : values) out << value;
  out << YAML::EndSeq;
}

void string_list(YAML::Emitter& out, const std::vector<std::string>& values) {
  out << YAML::Flow << YAML::BeginSeq;
  for (const std::string& value : values) string(out, value);
  out << YAML::EndSeq;
}

void config(YAML::Emitter& out, const KernelConfig& config) {
  std::vector<std::string_view> tunable_names;
  for (const auto& [name, value] : config.tunables) tunable_names.push_back(name);
  if (!any_explicit_key(tunable_names)) out << YAML::Flow;
  out << YAML::BeginMap;
  if (!config.block_sizes.empty()) {
    key(out, "block_sizes");
    int_list(out, config.block_sizes);
  }
  if (!config.pallas_loop_type.empty()) {
    key(out, "pallas_loop_type");
    string_list(out, config.pallas_loop_type);
  }
  if (!config.pallas_load_buffer_count.empty()) {
    key(out, "pallas_load_buffer_count");
    int_list(out, config.pallas_load_buffer_count);
  }
  if (!config.loop_orders.empty()) {
    key(out, "loop_orders");
    out << YAML::Flow << YAML::BeginSeq;
    for (const std::vector<int64_t>& order : config.loop_orders) int_list(out, order);
    out << YAML::EndSeq;
  }
  if (config.vmem_limit_bytes) {
    key(out, "vmem_limit_bytes");
    out << *config.vmem_limit_bytes;
  }
  if (config.pallas_pre_broadcast) {
    key(out, "pallas_pre_broadcast");
    out << *config.pallas_pre_broadcast;
  }
  // A tunable's value is kept as the file wrote it: a number or bool as its text, a string
  // quoted again.
  for (const auto& [name, value] : config.tunables) {
    key(out, name);
    if (value.is_string) {
      string(out, value.text);
    } else {
      out << value.text;
    }
  }
  out << YAML::EndMap;
}

void comment(YAML::Emitter& out, std::string_view text) {
  std::string lines;
  while (!text.empty()) {
    const size_t newline = text.find('\n');
    lines += (lines.empty() ? "" : "\n") + one_line_text(text.substr(0, newline));
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
  }
  out << YAML::Comment(lines);
}

}  // namespace helionc::autotune::yaml_write
