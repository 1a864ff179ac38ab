#include "driver/help_format.h"

#include <algorithm>
#include <utility>

namespace helionc::driver {

std::string wrap_text(std::string_view text, size_t width, size_t indent) {
  std::string out;
  while (true) {
    const size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    // Leading spaces (an indented line, a table's row) are kept on the first piece.
    size_t column = 0;
    bool first = true;
    while (!line.empty()) {
      size_t spaces = 0;
      while (spaces < line.size() && line[spaces] == ' ') ++spaces;
      const size_t end = line.find(' ', spaces);
      const std::string_view word = line.substr(
          spaces, end == std::string_view::npos ? std::string_view::npos : end - spaces);
      line.remove_prefix(std::min(line.size(), spaces + word.size()));
      if (!first && column + spaces + word.size() > width) {
        out += "\n" + std::string(indent, ' ');
        column = indent;
        spaces = 0;  // the spaces before a wrapped word are the line break
      }
      out += std::string(spaces, ' ');
      out += word;
      column += spaces + word.size();
      first = false;
    }
    if (newline == std::string_view::npos) break;
    out += '\n';
    text.remove_prefix(newline + 1);
  }
  return out;
}

namespace {

class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter() { column_width(kHelpNameColumn); }

  // CLI11 indents each line after a `\n` of a description to the column.
  // CLI11 2.1 puts two blank lines between groups (one after each, one before the next).
  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override {
    std::string text = CLI::Formatter::make_help(app, std::move(name), mode);
    for (size_t at; (at = text.find("\n\n\n")) != std::string::npos;) text.erase(at, 1);
    return text;
  }

  std::string make_option_desc(const CLI::Option* option) const override {
    return wrap_text(option->get_description(), kHelpWidth - get_column_width());
  }
};

}  // namespace

std::shared_ptr<CLI::Formatter> help_formatter() { return std::make_shared<HelpFormatter>(); }

}  // namespace helionc::driver
