// Internal to the config loader: reading yaml-cpp nodes with diagnostics at their positions.
//
// yaml-cpp gives each node a 0-based start mark only; YamlReader turns it into a SourceRange
// over the node's text in the SourceFile (a scalar, a quoted string, a bracketed flow
// collection, or the rest of the line for block collections), so errors show the YAML line
// with a caret under the offending value. Typed reads check YAML's own typing: a quoted "64"
// is a string, not an integer.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "support/diagnostics.h"
#include "support/source.h"

namespace helionc::autotune::yaml_detail {

struct ParsedDocument {
  YAML::Node root;                            // Null for an empty file
  std::optional<YAML::Mark> second_document;  // where a second document starts, if any
};

// Parses the first YAML document of `text` and notes whether another follows; throws
// YAML::Exception on a syntax error, like yaml-cpp. Not YAML::LoadAll: in yaml-cpp 0.7 (Debian
// 12) it loops forever, allocating, on a stray `,` at document level (jbeder/yaml-cpp#1040,
// fixed upstream by #1319); here such input is a syntax error.
ParsedDocument parse_single_document(const std::string& text);

class YamlReader {
 public:
  YamlReader(const SourceFile& file, DiagnosticEngine& diags) : file_(file), diags_(diags) {}

  SourceRange range_of(const YAML::Node& node) const;
  SourceRange range_at(const YAML::Mark& mark) const;  // empty range at a mark
  // The value's range, or the key's when the value is empty (`block_sizes:` with nothing).
  SourceRange value_range(const YAML::Node& key, const YAML::Node& value) const;

  Diagnostic& error(SourceRange range, std::string message) {
    return diags_.error(DiagnosticKind::kConfigSchema, range, std::move(message));
  }

  // How a node reads in a message: `64`, the string `"64"`, a list, a mapping, nothing.
  std::string describe(const YAML::Node& node) const;

  // True for a scalar written without quotes or tags (so it may be a number or a bool).
  static bool is_plain(const YAML::Node& node);

  // Typed scalar reads; nullopt (nothing reported) when the node is not of that type.
  static std::optional<int64_t> as_int(const YAML::Node& node);
  static std::optional<double> as_number(const YAML::Node& node);
  static std::optional<bool> as_bool(const YAML::Node& node);

  // An integer in [min, max]; otherwise reports "`what` must be `expectation`, not ..." at the
  // node and returns nullopt.
  std::optional<int64_t> read_int(const YAML::Node& node, std::string_view what, int64_t min,
                                  int64_t max, std::string_view expectation);
  // Any scalar (plain or quoted) as text; reports "`what` must be a string" otherwise.
  std::optional<std::string> read_string(const YAML::Node& node, std::string_view what);

  // Calls visit(key, key_node, value_node) for each entry of a mapping in file order; reports
  // non-scalar keys and duplicate keys (with a note at the first) and skips them.
  void for_each_entry(
      const YAML::Node& map,
      const std::function<void(const std::string&, const YAML::Node&, const YAML::Node&)>& visit);

  // "unknown key `blok_sizes` in <where>; did you mean `block_sizes`?", or without a close
  // match "...; expected one of `a`, `b` (keys of your own need the `x-` prefix)".
  void unknown_key(const YAML::Node& key_node, const std::string& key, std::string_view where,
                   std::span<const std::string_view> known);

 private:
  uint32_t offset_of(const YAML::Mark& mark) const;
  uint32_t token_end(uint32_t begin, const YAML::Node& node) const;

  const SourceFile& file_;
  DiagnosticEngine& diags_;
};

}  // namespace helionc::autotune::yaml_detail
