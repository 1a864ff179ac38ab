// PythonWriter: builds generated Python line by line with indentation that cannot leak.
//
//   PythonWriter w;
//   {
//     auto body = w.block("def kernel(x_ref, o_ref):");   // writes the header, indents by 4
//     w.comment("samples/add.py:12");
//     w.line("o_ref[...] = x_ref[...] + 1");
//   }                                                      // dedents here (RAII)
//   std::string text = w.str();
//
// Guarantees, so generated modules are clean and byte-identical run to run:
// - no trailing whitespace on any line (text is right-trimmed; empty lines get no indent);
// - never more than two consecutive blank lines, no blank lines at the start or end;
// - a block whose body stayed empty gets `pass`, so the output is always valid Python.
#pragma once

#include <fmt/core.h>

#include <string>
#include <string_view>
#include <vector>

namespace helionc {

class PythonWriter {
 public:
  static constexpr int kIndentWidth = 4;

  // Closes its block when destroyed. Movable (to return one from a helper), not copyable.
  class [[nodiscard]] Block {
   public:
    Block(Block&& other) noexcept : writer_(other.writer_) { other.writer_ = nullptr; }
    Block(const Block&) = delete;
    Block& operator=(const Block&) = delete;
    Block& operator=(Block&&) = delete;
    ~Block() {
      if (writer_ != nullptr) writer_->close_block();
    }

   private:
    friend class PythonWriter;
    explicit Block(PythonWriter* writer) : writer_(writer) {}
    PythonWriter* writer_;
  };

  // One line at the current indentation. Text with newlines is split into several lines, each
  // indented (lines keep their own relative indentation). A carriage return or NUL in code is
  // an internal error: outside text must reach code only quoted (support/quote.h).
  void line(std::string_view text);
  // `line(fmt::format(format, args...))`; a separate name because a plain line may hold braces.
  template <typename... Args>
  void linef(fmt::format_string<Args...> format, Args&&... args) {
    line(fmt::format(format, std::forward<Args>(args)...));
  }
  void blank();
  // `# text` at the current indentation; each line of a multi-line text gets its own `#`.
  // Any other line break or control character is escaped (support/quote.h: one_line_text).
  void comment(std::string_view text);
  // Writes `header` (e.g. "def f(x):", "with ctx:") and indents until the Block is destroyed.
  Block block(std::string_view header);

  int indent_level() const { return static_cast<int>(open_blocks_.size()); }
  // The text so far, every line ending in '\n' (empty when nothing was written).
  std::string str() const;

 private:
  void close_block();
  void emit(std::string_view text);

  std::vector<std::string> lines_;
  // For each open block, the number of lines when it was opened (to detect an empty body).
  std::vector<size_t> open_blocks_;
};

}  // namespace helionc
