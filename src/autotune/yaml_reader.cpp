#include "autotune/yaml_reader.h"

#include <fmt/core.h>

#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <sstream>

#include "support/did_you_mean.h"

namespace helionc::autotune::yaml_detail {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// One past the closing quote of the quoted scalar starting at text[begin].
size_t skip_quoted(std::string_view text, size_t begin) {
  char quote = text[begin];
  for (size_t i = begin + 1; i < text.size(); ++i) {
    if (quote == '"' && text[i] == '\\') {
      ++i;
    } else if (text[i] == quote) {
      if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        ++i;  // '' is an escaped quote
      } else {
        return i + 1;
      }
    }
  }
  return text.size();
}

const std::string& node_tag(const YAML::Node& node) { return node.Tag(); }

// Records where documents start and ignores everything else.
class DocumentStarts : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> starts;

  void OnDocumentStart(const YAML::Mark& mark) override { starts.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

}  // namespace

ParsedDocument parse_single_document(const std::string& text) {
  // At most two documents: enough to tell "one" from "more", and never the endless loop.
  std::istringstream stream(text);
  YAML::Parser parser(stream);
  DocumentStarts documents;
  for (int i = 0; i < 2 && parser.HandleNextDocument(documents); ++i) {
  }
  ParsedDocument result;
  if (documents.starts.size() == 2) {
    const YAML::Mark& first = documents.starts[0];
    if (documents.starts[1].pos == first.pos) {
      // The parser did not move: a token no document can start with.
      size_t pos = static_cast<size_t>(first.pos);
      std::string token =
          pos < text.size() ? std::string(1, text[pos]) : std::string("end of file");
      throw YAML::ParserException(first, fmt::format("unexpected `{}`", token));
    }
    result.second_document = documents.starts[1];
  }
  result.root = YAML::Load(text);  // one HandleNextDocument call: cannot loop
  return result;
}

uint32_t YamlReader::offset_of(const YAML::Mark& mark) const {
  if (mark.line < 0 || mark.column < 0) return 0;
  return file_.offset_of(
      {static_cast<uint32_t>(mark.line) + 1, static_cast<uint32_t>(mark.column) + 1});
}

uint32_t YamlReader::token_end(uint32_t begin, const YAML::Node& node) const {
  std::string_view text = file_.text();
  if (begin >= text.size()) return begin;
  char first = text[begin];
  if (first == '"' || first == '\'') return static_cast<uint32_t>(skip_quoted(text, begin));
  if (first == '[' || first == '{') {
    int depth = 0;
    for (size_t i = begin; i < text.size(); ++i) {
      char c = text[i];
      if (c == '"' || c == '\'') {
        i = skip_quoted(text, i) - 1;
      } else if (c == '#' && is_space(text[i - 1])) {
        i = std::min(text.find('\n', i), text.size()) - 1;
      } else if (c == '[' || c == '{') {
        ++depth;
      } else if ((c == ']' || c == '}') && --depth == 0) {
        return static_cast<uint32_t>(i + 1);
      }
    }
    return static_cast<uint32_t>(text.size());
  }
  if (node.IsScalar() && is_plain(node) && !node.Scalar().empty() &&
      text.substr(begin).starts_with(node.Scalar())) {
    return begin + static_cast<uint32_t>(node.Scalar().size());
  }
  // The rest of the line, before a comment (and, for scalars, before flow punctuation).
  bool collection = node.IsMap() || node.IsSequence();
  size_t line_end = std::min(text.find('\n', begin), text.size());
  size_t end = begin;
  for (size_t i = begin; i < line_end; ++i) {
    char c = text[i];
    if (c == '#' && i > begin && is_space(text[i - 1])) break;
    if (!collection && (c == ',' || c == ']' || c == '}')) break;
    if (!is_space(c)) end = i + 1;
  }
  return static_cast<uint32_t>(end);
}

SourceRange YamlReader::range_of(const YAML::Node& node) const {
  uint32_t begin = offset_of(node.Mark());
  return file_.range(begin, token_end(begin, node));
}

SourceRange YamlReader::range_at(const YAML::Mark& mark) const {
  uint32_t begin = offset_of(mark);
  return file_.range(begin, begin);
}

SourceRange YamlReader::value_range(const YAML::Node& key, const YAML::Node& value) const {
  return value.IsNull() && node_tag(value).empty() ? range_of(key) : range_of(value);
}

bool YamlReader::is_plain(const YAML::Node& node) {
  return node.IsScalar() && node_tag(node) == "?";
}

std::string YamlReader::describe(const YAML::Node& node) const {
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      return is_plain(node) ? fmt::format("`{}`", node.Scalar())
                            : fmt::format("the string `\"{}\"`", node.Scalar());
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a mapping";
    default:
      return "nothing";
  }
}

std::optional<int64_t> YamlReader::as_int(const YAML::Node& node) {
  if (!is_plain(node)) return std::nullopt;
  std::string_view text = node.Scalar();
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  int base = 10;
  if (text.starts_with("0x")) {
    base = 16, text.remove_prefix(2);
  } else if (text.starts_with("0o")) {
    base = 8, text.remove_prefix(2);
  }
  uint64_t magnitude = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), magnitude, base);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if (magnitude > static_cast<uint64_t>(INT64_MAX) + (negative ? 1 : 0)) return std::nullopt;
  return negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
}

std::optional<double> YamlReader::as_number(const YAML::Node& node) {
  if (std::optional<int64_t> integer = as_int(node)) return static_cast<double>(*integer);
  if (!is_plain(node)) return std::nullopt;
  std::string_view text = node.Scalar();
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  // from_chars also takes "inf" and "nan", which are not numbers a config should hold.
  if (text.find_first_of("0123456789") == std::string_view::npos) return std::nullopt;
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<bool> YamlReader::as_bool(const YAML::Node& node) {
  if (!is_plain(node)) return std::nullopt;
  const std::string& text = node.Scalar();
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  return std::nullopt;
}

std::optional<int64_t> YamlReader::read_int(const YAML::Node& node, std::string_view what,
                                            int64_t min, int64_t max,
                                            std::string_view expectation) {
  std::optional<int64_t> value = as_int(node);
  if (value && *value >= min && *value <= max) return value;
  error(range_of(node), fmt::format("{} must be {}, not {}", what, expectation, describe(node)));
  return std::nullopt;
}

std::optional<std::string> YamlReader::read_string(const YAML::Node& node, std::string_view what) {
  if (node.IsScalar()) return node.Scalar();
  error(range_of(node), fmt::format("`{}` must be a string, not {}", what, describe(node)));
  return std::nullopt;
}

void YamlReader::for_each_entry(
    const YAML::Node& map,
    const std::function<void(const std::string&, const YAML::Node&, const YAML::Node&)>& visit) {
  std::map<std::string, SourceRange> seen;
  // Bound by value: yaml-cpp's `it->first` refers into a temporary proxy.
  for (const auto& entry : map) {
    const YAML::Node key = entry.first;
    const YAML::Node value = entry.second;
    if (!key.IsScalar()) {
      error(range_of(key), fmt::format("keys must be names, not {}", describe(key)));
      continue;
    }
    auto [previous, inserted] = seen.emplace(key.Scalar(), range_of(key));
    if (!inserted) {
      error(range_of(key), fmt::format("duplicate key `{}`", key.Scalar()))
          .note(previous->second, "first given here");
      continue;
    }
    visit(key.Scalar(), key, value);
  }
}

void YamlReader::unknown_key(const YAML::Node& key_node, const std::string& key,
                             std::string_view where, std::span<const std::string_view> known) {
  const std::optional<std::string_view> best = closest_name(key, known);
  std::string message = fmt::format("unknown key `{}` in {}", key, where);
  if (best) {
    message += fmt::format("; did you mean `{}`?", *best);
  } else {
    std::string list;
    for (std::string_view name : known) {
      list += fmt::format("{}`{}`", list.empty() ? "" : ", ", name);
    }
    message += fmt::format("; expected one of {} (keys of your own need the `x-` prefix)", list);
  }
  error(range_of(key_node), std::move(message));
}

}  // namespace helionc::autotune::yaml_detail
