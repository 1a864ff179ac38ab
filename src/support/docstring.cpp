#include "support/docstring.h"

#include <algorithm>

#include "support/quote.h"

namespace helionc {

namespace {

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (true) {
    const size_t end = text.find('\n', start);
    lines.emplace_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return lines;
    start = end + 1;
  }
}

std::string expand_tabs(std::string_view line) {
  std::string out;
  for (const char c : line) {
    if (c == '\t') {
      out.append(8 - out.size() % 8, ' ');
    } else {
      out += c;
    }
  }
  return out;
}

size_t leading_blanks(std::string_view line) {
  const size_t first = line.find_first_not_of(' ');
  return first == std::string_view::npos ? line.size() : first;
}

}  // namespace

std::string clean_docstring(std::string_view text) {
  std::vector<std::string> lines;
  for (const std::string& line : split_lines(text)) {
    std::string expanded = expand_tabs(line);
    expanded.erase(expanded.find_last_not_of(" \r") + 1);
    lines.push_back(std::move(expanded));
  }
  size_t indent = std::string::npos;
  for (size_t i = 1; i < lines.size(); ++i) {
    if (!lines[i].empty()) indent = std::min(indent, leading_blanks(lines[i]));
  }
  lines[0].erase(0, leading_blanks(lines[0]));
  for (size_t i = 1; i < lines.size(); ++i) {
    if (indent != std::string::npos) lines[i].erase(0, std::min(indent, lines[i].size()));
  }
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  size_t first = 0;
  while (first < lines.size() && lines[first].empty()) ++first;
  std::string cleaned;
  for (size_t i = first; i < lines.size(); ++i) {
    if (i > first) cleaned += '\n';
    cleaned += lines[i];
  }
  return cleaned;
}

std::vector<std::string> docstring_lines(std::string_view text) {
  std::vector<std::string> lines;
  for (const std::string& line : split_lines(text)) {
    const std::string quoted = double_quoted(line);
    lines.push_back(quoted.substr(1, quoted.size() - 2));
  }
  return lines;
}

}  // namespace helionc
