#include "backend/pallas/names.h"

#include <fmt/format.h>

#include <cctype>

#include "support/python_names.h"
#include "support/templates.h"

namespace helionc::backend::pallas {

std::string module_imports(bool functools, bool math, bool numpy) {
  std::string text;
  if (functools) text += "import functools\n";
  if (math) text += "import math\n";
  if (!text.empty()) text += "\n";
  text +=
      "import jax\n"
      "import jax.numpy as jnp\n";
  if (numpy) text += "import numpy as np\n";
  text +=
      "from jax.experimental import pallas as pl\n"
      "from jax.experimental.pallas import tpu as pltpu\n";
  return text;
}

namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The identifier at the start of `text` ("" when there is none).
std::string_view leading_name(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text.front()))) return {};
  size_t end = 0;
  while (end < text.size() && is_name_char(text[end])) ++end;
  return text.substr(0, end);
}

std::string_view trim_left(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '(')) text.remove_prefix(1);
  return text;
}

// What one import clause (`a.b`, `a.b as c`) binds: `c`, else `a` for `import`, `b` for `from`.
void add_imported_name(std::string_view clause, bool from_import, std::set<std::string>& names) {
  clause = trim_left(clause);
  const size_t as = clause.find(" as ");
  if (as != std::string_view::npos) {
    names.insert(std::string(leading_name(trim_left(clause.substr(as + 4)))));
    return;
  }
  std::string_view name = leading_name(clause);
  if (from_import) {
    names.insert(std::string(name));
  } else {
    names.insert(std::string(name.substr(0, name.find('.'))));
  }
}

void add_import_line(std::string_view line, std::set<std::string>& names) {
  const bool from_import = line.starts_with("from ");
  if (from_import) {
    const size_t import = line.find(" import ");
    if (import == std::string_view::npos) return;
    line.remove_prefix(import + 8);
  } else {
    line.remove_prefix(7);  // "import "
  }
  while (!line.empty()) {
    const size_t comma = line.find(',');
    add_imported_name(line.substr(0, comma), from_import, names);
    if (comma == std::string_view::npos) break;
    line.remove_prefix(comma + 1);
  }
}

}  // namespace

std::set<std::string> module_level_names(std::string_view python_text) {
  std::set<std::string> names;
  while (!python_text.empty()) {
    const size_t newline = python_text.find('\n');
    std::string_view line = python_text.substr(0, newline);
    python_text.remove_prefix(newline == std::string_view::npos ? python_text.size() : newline + 1);
    if (line.starts_with("import ") || line.starts_with("from ")) {
      add_import_line(line, names);
      continue;
    }
    for (std::string_view keyword : {"def ", "class ", "async def "}) {
      if (line.starts_with(keyword)) line.remove_prefix(keyword.size());
    }
    const std::string_view name = leading_name(line);
    if (name.empty()) continue;
    std::string_view rest = line.substr(name.size());
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    // A definition, or an assignment (`=` but not `==`) or annotation at column 0.
    const bool defines = rest.starts_with("(") || rest.starts_with(":") ||
                         (rest.starts_with("=") && !rest.starts_with("=="));
    if (defines && !is_python_keyword(name)) names.insert(std::string(name));
  }
  return names;
}

const std::set<std::string>& template_module_names() {
  static const std::set<std::string> names = [] {
    std::set<std::string> all = module_level_names(module_imports(true, true, true));
    const TemplateSet templates = TemplateSet::embedded();
    for (const std::string& file : templates.names()) {
      auto text = templates.get(file);
      if (!text) continue;
      all.merge(module_level_names(*text));
    }
    return all;
  }();
  return names;
}

std::string reference_function_name(std::string_view kernel) {
  return "reference_" + std::string(kernel);
}

bool is_kernel_module_name(std::string_view name) {
  if (!name.starts_with("_") || name.size() < 2) return false;
  if (name.ends_with("_CONFIGS") || name.ends_with("_DEFAULT")) return true;
  const size_t kernel = name.find("_kernel", 1);
  if (kernel == std::string_view::npos) return false;
  const size_t after = kernel + 7;
  return after == name.size() || name[after] == '_';
}

bool is_reserved_module_name(std::string_view name) {
  return template_module_names().count(std::string(name)) > 0 || is_python_keyword(name) ||
         is_python_builtin(name) || is_kernel_module_name(name) || name == "interpret";
}

std::string safe_local_name(std::string_view source_name) {
  std::string name(source_name);
  std::string_view stem = source_name;
  while (stem.size() > 1 && stem.back() == '_') stem.remove_suffix(1);
  if (is_reserved_module_name(stem)) name += "_";
  return name;
}

std::string NameScope::fresh(std::string_view base) {
  std::string name(base);
  for (int n = 2; taken(name); ++n) name = fmt::format("{}{}", base, n);
  used_.insert(name);
  return name;
}

}  // namespace helionc::backend::pallas
