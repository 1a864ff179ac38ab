#include "support/templates.h"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "support/embedded_files.h"
#include "support/file_io.h"

namespace helionc {

namespace {

bool is_identifier_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_identifier_char(char c) { return is_identifier_start(c) || (c >= '0' && c <= '9'); }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// A placeholder at text[pos] == '$'.
struct Placeholder {
  enum Form { kName, kDollar, kInvalid } form;
  std::string_view name;
  size_t length;  // characters consumed, `$` included
};

Placeholder scan_placeholder(std::string_view text, size_t pos) {
  size_t next = pos + 1;
  if (next < text.size() && text[next] == '$') return {Placeholder::kDollar, {}, 2};
  if (next < text.size() && text[next] == '{') {
    size_t close = text.find('}', next);
    if (close == std::string_view::npos) return {Placeholder::kInvalid, {}, 1};
    std::string_view name = text.substr(next + 1, close - next - 1);
    bool valid = !name.empty() && is_identifier_start(name[0]) &&
                 std::all_of(name.begin(), name.end(), is_identifier_char);
    if (!valid) return {Placeholder::kInvalid, {}, 1};
    return {Placeholder::kName, name, close - pos + 1};
  }
  if (next < text.size() && is_identifier_start(text[next])) {
    size_t end = next;
    while (end < text.size() && is_identifier_char(text[end])) ++end;
    return {Placeholder::kName, text.substr(next, end - next), end - pos};
  }
  return {Placeholder::kInvalid, {}, 1};
}

class Expander {
 public:
  Expander(const TemplateValues& values, std::string_view template_name)
      : values_(values), template_name_(template_name) {}

  Expected<std::string> run(std::string_view text) {
    while (!text.empty()) {
      size_t newline = text.find('\n');
      bool has_newline = newline != std::string_view::npos;
      std::string_view line = text.substr(0, newline);
      text.remove_prefix(has_newline ? newline + 1 : text.size());
      ++line_number_;
      bool ok = expand_block_line(line, has_newline) || expand_inline(line, has_newline);
      if (!ok) return Error{std::move(error_)};
    }
    return std::move(out_);
  }

 private:
  std::string error_at(size_t column, std::string_view message) {
    return fmt::format("{}:{}:{}: {}", template_name_, line_number_, column + 1, message);
  }

  const std::string* lookup(std::string_view name, size_t column) {
    auto it = values_.find(name);
    if (it != values_.end()) return &it->second;
    error_ = error_at(column, fmt::format("unknown template placeholder `${}`", name));
    return nullptr;
  }

  // A line holding only a placeholder becomes the value's lines, indented like the
  // placeholder. Returns false (with out_ untouched) if the line is not of that shape; on an
  // unknown placeholder it sets error_ and returns false, and expand_inline reports the same.
  bool expand_block_line(std::string_view line, bool has_newline) {
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string_view::npos || line[start] != '$') return false;
    Placeholder p = scan_placeholder(line, start);
    if (p.form != Placeholder::kName) return false;
    std::string_view rest = line.substr(start + p.length);
    if (!std::all_of(rest.begin(), rest.end(), is_blank)) return false;
    auto it = values_.find(p.name);
    if (it == values_.end()) return false;  // expand_inline reports it
    std::string_view value = it->second;
    if (!value.empty() && value.back() == '\n') value.remove_suffix(1);
    if (value.empty()) return true;  // the line disappears
    std::string_view indent = line.substr(0, start);
    while (true) {
      size_t newline = value.find('\n');
      std::string_view part = value.substr(0, newline);
      if (!std::all_of(part.begin(), part.end(), is_blank)) {
        out_ += indent;
        out_ += part;
      }
      if (newline == std::string_view::npos) break;
      out_ += '\n';
      value.remove_prefix(newline + 1);
    }
    if (has_newline) out_ += '\n';
    return true;
  }

  bool expand_inline(std::string_view line, bool has_newline) {
    for (size_t i = 0; i < line.size();) {
      if (line[i] != '$') {
        out_ += line[i++];
        continue;
      }
      Placeholder p = scan_placeholder(line, i);
      if (p.form == Placeholder::kInvalid) {
        error_ = error_at(i,
                          "stray `$` in template; write `$$` for a literal dollar sign, "
                          "`$name` or `${name}` for a placeholder");
        return false;
      }
      if (p.form == Placeholder::kDollar) {
        out_ += '$';
      } else {
        const std::string* value = lookup(p.name, i);
        if (value == nullptr) return false;
        std::string_view text = *value;
        if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
        if (text.find('\n') != std::string_view::npos) {
          error_ = error_at(i, fmt::format("placeholder `${}` has a multi-line value but is "
                                           "not alone on its line",
                                           p.name));
          return false;
        }
        out_ += text;
      }
      i += p.length;
    }
    if (has_newline) out_ += '\n';
    return true;
  }

  const TemplateValues& values_;
  std::string_view template_name_;
  std::string out_;
  std::string error_;
  size_t line_number_ = 0;
};

}  // namespace

Expected<std::string> expand_template(std::string_view text, const TemplateValues& values,
                                      std::string_view template_name) {
  return Expander(values, template_name).run(text);
}

TemplateSet TemplateSet::embedded() {
  TemplateSet set;
  set.origin_ = "built-in templates";
  for (const EmbeddedFile& file : detail::embedded_template_files()) {
    set.files_.emplace(std::string(file.name), std::string(file.content));
  }
  return set;
}

Expected<TemplateSet> TemplateSet::from_directory(const std::string& directory) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(directory, ec)) {
    return Error{
        fmt::format("template directory `{}` does not exist or is not a directory", directory)};
  }
  TemplateSet set;
  set.origin_ = fmt::format("template directory `{}`", directory);
  fs::directory_iterator it(directory, ec);
  if (ec) {
    return Error{fmt::format("cannot list template directory `{}`: {}", directory, ec.message())};
  }
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    const fs::path& path = it->path();
    if (path.extension() != ".tmpl" || !it->is_regular_file(ec)) continue;
    Expected<std::string> content = read_file(path.string());
    if (!content) return Error{content.error()};
    set.files_.emplace(path.filename().string(), std::move(*content));
    set.paths_read_.push_back(path.string());
  }
  if (ec) {
    return Error{fmt::format("cannot list template directory `{}`: {}", directory, ec.message())};
  }
  std::sort(set.paths_read_.begin(), set.paths_read_.end());  // the listing's order is the disk's
  return set;
}

Expected<std::string_view> TemplateSet::get(std::string_view name) const {
  auto it = files_.find(name);
  if (it == files_.end()) {
    return Error{fmt::format("template `{}` not found in the {}", name, origin_)};
  }
  return std::string_view(it->second);
}

Expected<std::string> TemplateSet::expand(std::string_view name,
                                          const TemplateValues& values) const {
  Expected<std::string_view> text = get(name);
  if (!text) return Error{text.error()};
  return expand_template(*text, values, name);
}

std::vector<std::string> TemplateSet::names() const {
  std::vector<std::string> names;
  for (const auto& [name, content] : files_) names.push_back(name);
  return names;
}

}  // namespace helionc
