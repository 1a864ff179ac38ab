#include "support/python_writer.h"

#include <algorithm>

#include "support/internal_check.h"
#include "support/quote.h"

namespace helionc {

namespace {
std::string_view right_trim(std::string_view text) {
  size_t end = text.find_last_not_of(" \t\r\f\v");
  return end == std::string_view::npos ? std::string_view{} : text.substr(0, end + 1);
}
}  // namespace

void PythonWriter::emit(std::string_view text) {
  text = right_trim(text);
  // Code is made of names and literals the printers escaped; a line break Python's tokenizer
  // sees here (or a NUL, which it refuses) would let outside text run as code.
  HELIONC_CHECK(
      std::none_of(text.begin(), text.end(), [](char c) { return c == '\r' || c == '\0'; }),
      "a generated line holds a carriage return or a NUL");
  if (text.empty()) {
    blank();
    return;
  }
  std::string indented(open_blocks_.size() * kIndentWidth, ' ');
  indented += text;
  lines_.push_back(std::move(indented));
}

void PythonWriter::line(std::string_view text) {
  while (true) {
    size_t newline = text.find('\n');
    emit(text.substr(0, newline));
    if (newline == std::string_view::npos) return;
    text.remove_prefix(newline + 1);
  }
}

void PythonWriter::blank() {
  if (lines_.empty()) return;  // no blank lines at the start
  size_t trailing = 0;
  for (auto it = lines_.rbegin(); it != lines_.rend() && it->empty(); ++it) ++trailing;
  if (trailing < 2) lines_.emplace_back();
}

void PythonWriter::comment(std::string_view text) {
  while (true) {
    size_t newline = text.find('\n');
    const std::string part = one_line_text(right_trim(text.substr(0, newline)));
    emit(part.empty() ? std::string("#") : "# " + part);
    if (newline == std::string_view::npos) return;
    text.remove_prefix(newline + 1);
  }
}

PythonWriter::Block PythonWriter::block(std::string_view header) {
  line(header);
  open_blocks_.push_back(lines_.size());
  return Block(this);
}

void PythonWriter::close_block() {
  size_t opened_at = open_blocks_.back();
  // Blank lines at the end of a body belong after the block, not inside it.
  size_t trailing_blanks = 0;
  while (lines_.size() > opened_at && lines_.back().empty()) {
    lines_.pop_back();
    ++trailing_blanks;
  }
  // Comments are no statement: a body of comments alone needs its `pass` too.
  const bool has_code = std::any_of(lines_.begin() + static_cast<std::ptrdiff_t>(opened_at),
                                    lines_.end(), [](const std::string& line) {
                                      const size_t first = line.find_first_not_of(' ');
                                      return first != std::string::npos && line[first] != '#';
                                    });
  if (!has_code) emit("pass");
  open_blocks_.pop_back();
  for (size_t i = 0; i < trailing_blanks; ++i) blank();
}

std::string PythonWriter::str() const {
  size_t count = lines_.size();
  while (count > 0 && lines_[count - 1].empty()) --count;  // no blank lines at the end
  std::string out;
  for (size_t i = 0; i < count; ++i) {
    out += lines_[i];
    out += '\n';
  }
  return out;
}

}  // namespace helionc
