#include "backend/pallas/emit_context.h"

#include <fmt/format.h>

#include <cctype>

#include "support/quote.h"

namespace helionc::backend::pallas {

std::string EmitContext::where(const SourceRange& range) const {
  if (!range.valid()) return "";
  return fmt::format("{}:{}", options.source_path, range.file->line_column(range.begin).line);
}

std::string EmitContext::with_where(std::string text, const SourceRange& range) const {
  const std::string place = where(range);
  if (place.empty()) return text;
  return fmt::format("{}  # {}", text, one_line_text(place));
}

std::string EmitContext::source_line(const SourceRange& range) const {
  if (!range.valid()) return "";
  std::string_view line = range.file->line_text(range.file->line_column(range.begin).line);
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) {
    line.remove_prefix(1);
  }
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) {
    line.remove_suffix(1);
  }
  return std::string(line);
}

namespace {
std::string upper(std::string_view name) {
  std::string out;
  for (char c : name) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}
}  // namespace

std::string config_table_name(const ir::Kernel& kernel) {
  return fmt::format("_{}_CONFIGS", upper(kernel.name));
}

std::string config_default_name(const ir::Kernel& kernel) {
  return fmt::format("_{}_DEFAULT", upper(kernel.name));
}

}  // namespace helionc::backend::pallas
