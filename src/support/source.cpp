#include "support/source.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

namespace helionc {

SourceRange SourceRange::merge(const SourceRange& other) const {
  if (!valid()) return other;
  if (!other.valid()) return *this;
  return {file, std::min(begin, other.begin), std::max(end, other.end)};
}

std::string with_lone_crs_as_newlines(std::string text) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) text[i] = '\n';
  }
  return text;
}

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (uint32_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
}

LineColumn SourceFile::line_column(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  // The last line start at or before `offset`.
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset) - 1;
  auto line = static_cast<uint32_t>(it - line_starts_.begin());
  return {line + 1, offset - *it + 1};
}

uint32_t SourceFile::line_count() const {
  auto count = static_cast<uint32_t>(line_starts_.size());
  if (line_starts_.back() == text_.size()) --count;  // no line after a final newline
  return count;
}

uint32_t SourceFile::line_offset(uint32_t line) const {
  if (line == 0) return 0;
  if (line > line_starts_.size()) return static_cast<uint32_t>(text_.size());
  return line_starts_[line - 1];
}

std::string_view SourceFile::line_text(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  uint32_t begin = line_starts_[line - 1];
  uint32_t end = line < line_starts_.size() ? line_starts_[line] - 1  // before the '\n'
                                            : static_cast<uint32_t>(text_.size());
  std::string_view result(text_.data() + begin, end - begin);
  if (!result.empty() && result.back() == '\r') result.remove_suffix(1);
  return result;
}

uint32_t SourceFile::offset_of(LineColumn position) const {
  uint32_t begin = line_offset(position.line);
  if (position.line == 0 || position.line > line_starts_.size()) return begin;
  auto length = static_cast<uint32_t>(line_text(position.line).size());
  uint32_t column = position.column == 0 ? 0 : position.column - 1;
  return begin + std::min(column, length);
}

std::string_view SourceFile::text_of(const SourceRange& range) const {
  if (range.file != this) return {};
  auto size = static_cast<uint32_t>(text_.size());
  uint32_t begin = std::min(range.begin, size);
  uint32_t end = std::clamp(range.end, begin, size);
  return std::string_view(text_).substr(begin, end - begin);
}

std::string file_name_and_line(const SourceRange& range) {
  if (!range.valid()) return "";
  return fmt::format("{}:{}", std::filesystem::path(range.file->path()).filename().string(),
                     range.file->line_column(range.begin).line);
}

}  // namespace helionc
