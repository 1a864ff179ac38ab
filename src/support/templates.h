// Template expansion for the generated Python modules.
//
// Templates are Python text with placeholders, so no brace needs escaping (architecture.md:
// never run fmt over whole Python templates):
//   $name, ${name}  the value of `name` (identifier characters; use ${name} when letters follow)
//   $$              a literal `$`
// A placeholder alone on its line (only spaces or tabs around it) stands for a block: each line
// of the value is written indented by the placeholder's leading whitespace (empty lines stay
// empty), and an empty value removes the line altogether. One trailing newline of a value is
// ignored. Anywhere else a placeholder is replaced inline and its value must be a single line.
// An unknown placeholder, a stray `$` or a multi-line inline value is an error (a message with
// `template:line:col`), never a crash and never silently empty output.
//
// The templates themselves are the files templates/*.tmpl of the repository, embedded into
// the binary at build time (cmake/EmbedTemplates.cmake) and looked up by file name; a
// TemplateSet::from_directory() replaces them wholesale for --template-dir.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "support/expected.h"

namespace helionc {

using TemplateValues = std::map<std::string, std::string, std::less<>>;

// Expands `text`; `template_name` is used in error messages.
Expected<std::string> expand_template(std::string_view text, const TemplateValues& values,
                                      std::string_view template_name = "<template>");

class TemplateSet {
 public:
  // The templates built into the binary (possibly none).
  static TemplateSet embedded();
  // Every *.tmpl file directly inside `directory`; an error if it is not a readable directory.
  // Built-in templates are not consulted: a missing file is reported, not silently replaced.
  static Expected<TemplateSet> from_directory(const std::string& directory);

  // The text of the template file `name` ("module.py.tmpl").
  Expected<std::string_view> get(std::string_view name) const;
  // get() then expand_template().
  Expected<std::string> expand(std::string_view name, const TemplateValues& values) const;

  // File names, sorted.
  std::vector<std::string> names() const;
  // The paths from_directory() read (directory joined with each name, sorted), for depfiles;
  // empty for the built-in templates.
  const std::vector<std::string>& paths_read() const { return paths_read_; }
  // "built-in templates" or "template directory `DIR`", for messages.
  const std::string& origin() const { return origin_; }

 private:
  std::map<std::string, std::string, std::less<>> files_;
  std::vector<std::string> paths_read_;
  std::string origin_;
};

}  // namespace helionc
