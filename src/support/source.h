// Source files and positions. Every diagnostic and every IR node points into a SourceFile
// through a SourceRange, so late errors still name the user's code.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace helionc {

class SourceFile;

// A 1-based line and column (columns count bytes, as GCC does).
struct LineColumn {
  uint32_t line = 0;
  uint32_t column = 0;
};

// A half-open byte range [begin, end) in one source file. A default range has no file: it is
// used for diagnostics that concern no particular place (a missing input file, say).
struct SourceRange {
  const SourceFile* file = nullptr;
  uint32_t begin = 0;
  uint32_t end = 0;

  bool valid() const { return file != nullptr; }
  // The smallest range covering both (same file assumed; an invalid side is ignored).
  SourceRange merge(const SourceRange& other) const;
};

// "mm.py:11": the file's name (no folders) and the line where `range` begins; "" for a range
// without a file. Short labels in reports and tuned configs.
std::string file_name_and_line(const SourceRange& range);

// Python source with every carriage return that is not part of a CRLF turned into a line feed.
// Python reads a lone CR as a line break (universal newlines); tree-sitter-python does not, and
// neither does SourceFile's line table. One byte for one, so every offset into the result points
// at the same place in the original file.
std::string with_lone_crs_as_newlines(std::string text);

class SourceFile {
 public:
  // `path` is the name shown in diagnostics ("<stdin>" for standard input).
  SourceFile(std::string path, std::string text);

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  // The 1-based line and byte column of `offset`; an offset past the end is clamped to the end.
  LineColumn line_column(uint32_t offset) const;
  // The text of a 1-based line, without its newline (nor the '\r' of a CRLF file). Empty for
  // a line number out of range.
  std::string_view line_text(uint32_t line) const;
  // The text a range covers (clamped to the file); empty for a range into another file.
  std::string_view text_of(const SourceRange& range) const;
  SourceRange range(uint32_t begin, uint32_t end) const { return {this, begin, end}; }

  // Number of lines; a file ending in a newline has no extra empty last line.
  uint32_t line_count() const;
  // Byte offset where a 1-based line starts (clamped: 0 for line 0, the file size past the
  // end). Lets tools that report line/column (yaml-cpp marks) build a SourceRange.
  uint32_t line_offset(uint32_t line) const;
  // The offset of a 1-based line and column, clamped to that line's end (its newline).
  uint32_t offset_of(LineColumn position) const;

 private:
  std::string path_;
  std::string text_;
  std::vector<uint32_t> line_starts_;
};

}  // namespace helionc
