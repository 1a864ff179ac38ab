#include "backend/pallas/helper_calls.h"

#include <fmt/format.h>

#include <map>
#include <string_view>
#include <vector>

namespace helionc::backend::pallas {
namespace {

constexpr std::string_view kPrefix = "helper_";
constexpr std::string_view kSuffix = ".py.tmpl";

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// The identifiers of `text` that start with `_` (the module's private names).
std::vector<std::string_view> private_names(std::string_view text) {
  std::vector<std::string_view> names;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '_' || (i > 0 && is_identifier_char(text[i - 1]))) continue;
    size_t end = i;
    while (end < text.size() && is_identifier_char(text[end])) ++end;
    names.push_back(text.substr(i, end - i));
    i = end;
  }
  return names;
}

// The name a top-level line defines (`def _name(`, `_NAME = ...`), or empty.
std::string_view defined_name(std::string_view line) {
  if (line.starts_with("def ")) line.remove_prefix(4);
  if (!line.starts_with('_')) return {};
  size_t end = 0;
  while (end < line.size() && is_identifier_char(line[end])) ++end;
  const std::string_view rest = line.substr(end);
  return rest.starts_with('(') || rest.starts_with(" =") ? line.substr(0, end) : std::string_view{};
}

}  // namespace

Expected<std::set<std::string>> with_called_helpers(const TemplateSet& templates,
                                                    std::set<std::string> named) {
  std::map<std::string, std::string_view> texts;  // helper -> its template's text
  std::map<std::string_view, std::string> owner;  // defined name -> its helper
  for (const std::string& file : templates.names()) {
    if (!file.starts_with(kPrefix) || !file.ends_with(kSuffix)) continue;
    const std::string helper =
        file.substr(kPrefix.size(), file.size() - kPrefix.size() - kSuffix.size());
    const std::string_view text = *templates.get(file);
    texts[helper] = text;
    for (size_t at = 0; at < text.size();) {
      const size_t end = std::min(text.find('\n', at), text.size());
      if (std::string_view name = defined_name(text.substr(at, end - at)); !name.empty()) {
        owner.emplace(name, helper);
      }
      at = end + 1;
    }
  }
  std::vector<std::string> pending(named.begin(), named.end());
  while (!pending.empty()) {
    const std::string helper = pending.back();
    pending.pop_back();
    auto text = texts.find(helper);
    if (text == texts.end()) {
      return Error{
          fmt::format("{}: no template `{}{}{}`", templates.origin(), kPrefix, helper, kSuffix)};
    }
    for (std::string_view name : private_names(text->second)) {
      auto used = owner.find(name);
      if (used != owner.end() && named.insert(used->second).second) {
        pending.push_back(used->second);
      }
    }
  }
  return named;
}

}  // namespace helionc::backend::pallas
