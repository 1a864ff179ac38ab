// Rendering diagnostics as GCC-shaped text or as JSON (see diagnostics.h and README.md).
#include <fmt/core.h>

#include "support/diagnostics.h"
#include "support/json.h"
#include "support/quote.h"
#include "support/utf8.h"

namespace helionc {

namespace {

// GCC's SGR sequences (GCC_COLORS defaults), so helionc's colours match the C++ compiler's.
constexpr std::string_view kBold = "\033[01m\033[K";
constexpr std::string_view kRed = "\033[01;31m\033[K";
constexpr std::string_view kMagenta = "\033[01;35m\033[K";
constexpr std::string_view kCyan = "\033[01;36m\033[K";
constexpr std::string_view kGreen = "\033[01;32m\033[K";
constexpr std::string_view kBlue = "\033[01;34m\033[K";
constexpr std::string_view kReset = "\033[m\033[K";
constexpr uint32_t kTabStop = 8;

class TextRenderer {
 public:
  explicit TextRenderer(bool color) : color_(color) {}

  void diagnostic(const Diagnostic& d) {
    bool error = d.severity == Severity::kError;
    std::string suffix;
    if (d.promoted_from_warning) {
      suffix = fmt::format(" [{}]",
                           paint(kRed, fmt::format("-Werror={}", diagnostic_kind_name(d.kind))));
    } else if (d.severity == Severity::kWarning) {
      suffix =
          fmt::format(" [{}]", paint(kMagenta, fmt::format("-W{}", diagnostic_kind_name(d.kind))));
    }
    header(d.range, error ? "error" : "warning", error ? kRed : kMagenta, d.message, suffix);
    snippet(d.range);
    for (const DiagnosticNote& note : d.notes) {
      header(note.range, "note", kCyan, note.message, "");
      snippet(note.range);
    }
  }

  void remark(const SourceRange& range, std::string_view message) {
    header(range, "remark", kBlue, message, "");
  }

  std::string take() { return std::move(out_); }

 private:
  std::string paint(std::string_view code, std::string_view text) const {
    return color_ ? fmt::format("{}{}{}", code, text, kReset) : std::string(text);
  }

  // `path:line:col: label: message suffix`, or `helionc: label: ...` without a place.
  void header(const SourceRange& range, std::string_view label, std::string_view label_color,
              std::string_view message, std::string_view suffix) {
    std::string location = "helionc:";
    if (range.valid()) {
      LineColumn lc = range.file->line_column(range.begin);
      location = fmt::format("{}:{}:{}:", one_line_text(range.file->path()), lc.line, lc.column);
    }
    // Paths and messages quote the user's text: escapes in it must not reach the terminal.
    out_ +=
        fmt::format("{} {}{}{}\n", paint(kBold, location),
                    paint(label_color, fmt::format("{}: ", label)), one_line_text(message), suffix);
  }

  // The first line of the range with GCC's line-number gutter and a caret line under it: `^`
  // at the range's first column and `~` under the rest of the range on that line. Tabs are
  // expanded (tab stop 8) in both lines, a UTF-8 character takes one column, and control
  // characters and invalid bytes are shown escaped (`\x1b`, one_line_text), so the caret stays
  // aligned with what a terminal shows and the source cannot drive the terminal.
  void snippet(const SourceRange& range) {
    if (!range.valid()) return;
    const SourceFile& file = *range.file;
    LineColumn start = file.line_column(range.begin);
    std::string_view text = file.line_text(start.line);
    size_t first = start.column - 1;
    size_t last = first;  // one past the last marked byte
    if (range.end > range.begin) {
      LineColumn end = file.line_column(range.end);
      last = end.line == start.line ? end.column - 1 : text.size();
    }
    last = std::max(std::min(last, text.size()), first + 1);

    std::string shown, pad, marks;
    uint32_t display_column = 0;
    for (size_t i = 0; i < text.size();) {
      const Utf8Char c = decode_utf8(text, i);
      uint32_t width = 1;
      if (c.valid && c.code_point == '\t') {
        width = kTabStop - display_column % kTabStop;
        shown.append(width, ' ');
      } else if (c.valid && !is_unsafe_char(c.code_point)) {
        shown.append(text.substr(i, c.length));
      } else {
        const std::string escaped = one_line_text(text.substr(i, c.length));
        width = static_cast<uint32_t>(escaped.size());
        shown += escaped;
      }
      display_column += width;
      if (i < first) {
        pad.append(width, ' ');
      } else if (i < last) {
        for (uint32_t k = 0; k < width; ++k) marks += marks.empty() ? '^' : '~';
      }
      i += c.length;
    }
    if (marks.empty()) marks = "^";  // a range at the end of the line (a missing token)

    std::string number = fmt::format("{}", start.line);
    size_t gutter = std::max<size_t>(5, number.size());
    std::string source_line = fmt::format("{:>{}} | {}", number, gutter, shown);
    while (!source_line.empty() && source_line.back() == ' ') {
      source_line.pop_back();
    }
    out_ += source_line;
    out_ += '\n';
    out_ += fmt::format("{:>{}} | {}{}\n", "", gutter, pad, paint(kGreen, marks));
  }

  bool color_;
  std::string out_;
};

// The display column (1-based) of byte column `byte_column` on `line`: tabs to the next tab
// stop of 8, UTF-8 continuation bytes take none, as GCC counts "display-column".
uint32_t display_column_of(std::string_view line, uint32_t byte_column) {
  uint32_t column = 0;
  for (size_t i = 0; i + 1 < byte_column && i < line.size(); ++i) {
    auto c = static_cast<unsigned char>(line[i]);
    if (c == '\t') {
      column += kTabStop - column % kTabStop;
    } else if ((c & 0xC0) != 0x80) {
      ++column;
    }
  }
  return column + 1;
}

// GCC's location object: {"file", "line", "display-column", "byte-column", "column"}; like
// GCC, "column" is the display column.
std::string json_point(const SourceFile& file, uint32_t offset) {
  LineColumn at = file.line_column(offset);
  uint32_t display = display_column_of(file.line_text(at.line), at.column);
  return fmt::format(
      R"({{"file": {}, "line": {}, "display-column": {}, "byte-column": {}, "column": {}}})",
      json_quote(file.path()), at.line, display, at.column, display);
}

// GCC's "locations": one {"caret", "finish"} for the range, its finish the last character
// (GCC's is inclusive, our ranges are half-open) and left out for a range of one character;
// empty for a diagnostic without a place.
std::string json_locations(const SourceRange& range) {
  if (!range.valid()) return "[]";
  std::string location = fmt::format(R"({{"caret": {})", json_point(*range.file, range.begin));
  if (range.end > range.begin + 1) {
    location += fmt::format(R"(, "finish": {})", json_point(*range.file, range.end - 1));
  }
  return "[" + location + "}]";
}

std::string_view severity_name(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kNote:
      return "note";
  }
  return "error";
}

}  // namespace

std::string DiagnosticEngine::render_text() const {
  TextRenderer renderer(options_.color);
  size_t next_remark = 0;
  auto flush_remarks = [&](size_t position) {
    for (; next_remark < remarks_.size() && remarks_[next_remark].position <= position;
         ++next_remark) {
      renderer.remark(remarks_[next_remark].range, remarks_[next_remark].message);
    }
  };
  for (size_t i = 0; i < diagnostics_.size(); ++i) {
    flush_remarks(i);
    renderer.diagnostic(diagnostics_[i]);
  }
  flush_remarks(diagnostics_.size());
  std::string text = renderer.take();
  if (dropped_errors_ + dropped_warnings_ > 0) {
    text += fmt::format(
        "helionc: note: stopped after {} errors; {} more errors and {} more warnings are not "
        "shown (-fmax-errors=0 shows all)\n",
        options_.max_errors, dropped_errors_, dropped_warnings_);
  }
  return text;
}

// GCC's -fdiagnostics-format=json shape (GCC 12), one diagnostic object a line:
//   [
//     {"kind": "error", "message": "...", "children": [{"kind": "note", "message": ...,
//      "locations": [...], "escape-source": false}], "column-origin": 1, "locations": [{"caret":
//      {...}, "finish": {...}}], "escape-source": false, "option": "-Wunused-value",
//      "helionc-kind": "unused-value"}
//   ]
// "option" as GCC names it: -W<kind> for a warning, -Werror=<kind> for one -Werror promoted
// (GCC's "option_url" is left out: there is no page per warning to point at).
// "helionc-kind" is ours (GCC has no name for its errors); readers of GCC's JSON ignore it.
std::string DiagnosticEngine::render_json() const {
  if (diagnostics_.empty()) return "[]\n";
  std::string out = "[\n";
  for (size_t i = 0; i < diagnostics_.size(); ++i) {
    const Diagnostic& d = diagnostics_[i];
    std::string children;
    for (const DiagnosticNote& note : d.notes) {
      if (!children.empty()) children += ", ";
      children += fmt::format(
          R"({{"kind": "note", "message": {}, "locations": {}, "escape-source": false}})",
          json_quote(note.message), json_locations(note.range));
    }
    const std::string kind(diagnostic_kind_name(d.kind));
    std::string option;
    if (d.promoted_from_warning) {
      option = fmt::format(R"("option": "-Werror={}", )", kind);
    } else if (d.severity == Severity::kWarning) {
      option = fmt::format(R"("option": "-W{}", )", kind);
    }
    out += fmt::format(R"(  {{"kind": "{}", "message": {}, "children": [{}], "column-origin": 1, )"
                       R"("locations": {}, "escape-source": false, {}"helionc-kind": {}}}{})",
                       severity_name(d.severity), json_quote(d.message), children,
                       json_locations(d.range), option, json_quote(kind),
                       i + 1 < diagnostics_.size() ? ",\n" : "\n");
  }
  out += "]\n";
  return out;
}

}  // namespace helionc
