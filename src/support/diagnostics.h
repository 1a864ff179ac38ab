// Diagnostics: collected while compiling, rendered in GCC's shape (`file:line:col: error: msg`,
// the source line, a caret under the range, `note:` lines) or as JSON.
//
// Message style (from Carbon): lowercase, no trailing period, code in backticks, the situation
// first and then the fix, e.g. "`while` loops are not supported in device code; use
// `for ... in hl.tile(...)`".
//
// Text output (see README.md for the full description):
//   kernel.py:12:9: error: message
//      12 |     y = foo(x)
//         |         ^~~
//   kernel.py:3:5: note: a note with a place, same shape
//   helionc: note: a note without a place
//   helionc: error: a diagnostic without a place (a missing input file)
// Warnings end in ` [-W<flag>]`, or ` [-Werror=<flag>]` when -Werror turned them into errors.
// Diagnostics are rendered in the order they were recorded, never sorted.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/diagnostic_kinds.h"
#include "support/source.h"

namespace helionc {

enum class Severity { kError, kWarning, kNote };

struct DiagnosticNote {
  SourceRange range;  // may be invalid: a note without a place
  std::string message;
};

struct Diagnostic {
  DiagnosticKind kind;
  Severity severity;
  SourceRange range;
  std::string message;
  std::vector<DiagnosticNote> notes;
  // True when -Werror turned this warning into an error (it is rendered `[-Werror=flag]`).
  bool promoted_from_warning = false;

  // Attaches a note and returns *this, so notes chain:
  //   diags.error(kind, r, "...").note(prev, "previous definition is here");
  Diagnostic& note(SourceRange note_range, std::string note_message) {
    notes.push_back({note_range, std::move(note_message)});
    return *this;
  }
};

// The kind whose flag name is `flag` ("syntax-error"), if any.
std::optional<DiagnosticKind> diagnostic_kind_from_name(std::string_view flag);
// The same for the kinds that may be warnings: the names -W<name>/-Wno-<name> take.
std::optional<DiagnosticKind> warning_kind_from_name(std::string_view flag);
// Those names, in the .def's order (for --help and the usage error's did-you-mean).
std::vector<std::string_view> warning_names();

enum class DiagnosticsFormat { kText, kJson };

struct DiagnosticOptions {
  bool color = false;
  DiagnosticsFormat format = DiagnosticsFormat::kText;
  bool warnings_as_errors = false;
  bool verbose = false;  // -v: remarks/notes that are otherwise silent
  // -fmax-errors=N: after N errors nothing more is recorded (0: no limit). Clang's default
  // (-ferror-limit=20) rather than GCC's unlimited one: a generated or mangled file can hold
  // thousands of the same mistake (100,000 duplicate config keys printed 599,994 lines), and
  // the first ones are the ones to fix.
  size_t max_errors = kDefaultMaxErrors;
  static constexpr size_t kDefaultMaxErrors = 20;
};

class DiagnosticEngine {
 public:
  explicit DiagnosticEngine(DiagnosticOptions options = {}) : options_(options) {}

  // Each call records one diagnostic and returns it so notes can be attached. The reference
  // stays valid until the next diagnostic is recorded (the list is a vector), so attach notes
  // right away. A disabled warning (-Wno-<flag>) is not recorded: the returned object is a
  // scratch diagnostic that is never rendered. Under -Werror a warning is recorded as an error.
  Diagnostic& error(DiagnosticKind kind, SourceRange range, std::string message);
  Diagnostic& warning(DiagnosticKind kind, SourceRange range, std::string message);
  // A remark shown only under -v (skipped functions, ignored GPU-only config keys); rendered
  // as `file:line:col: remark: message` without a source line, and left out of JSON.
  void remark(SourceRange range, std::string message);

  bool has_errors() const;
  int error_count() const;
  int warning_count() const;

  // -W<flag> / -Wno-<flag>: enables or disables warnings of the kind named `flag` (the warning
  // names of diagnostic_kinds.def). Returns false, changing nothing, for an unknown flag, so the
  // driver can report a usage error. All warnings are enabled by default.
  bool set_warning_enabled(std::string_view flag, bool enabled);
  bool warning_enabled(DiagnosticKind kind) const;

  // Diagnostics point into SourceFiles by raw pointer. A producer whose file would otherwise
  // die before rendering (a config file that failed to load) hands it to the engine here.
  void keep_alive(std::shared_ptr<const SourceFile> file);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  // A recorded diagnostic, to attach a note found later (where inlined code was called from).
  Diagnostic& recorded(size_t index) { return diagnostics_.at(index); }
  const DiagnosticOptions& options() const { return options_; }

  // Renders everything recorded so far (text or JSON per the options). Text past the error
  // limit ends with a note saying how many diagnostics were left out.
  std::string render() const;

 private:
  struct Remark {
    size_t position;  // rendered before diagnostics_[position]: keeps the recorded order
    SourceRange range;
    std::string message;
  };

  std::string render_text() const;
  std::string render_json() const;

  DiagnosticOptions options_;
  std::vector<Diagnostic> diagnostics_;
  std::vector<Remark> remarks_;
  std::array<bool, kDiagnosticKindCount> warning_disabled_{};
  Diagnostic discarded_{};  // what warning() returns for a disabled warning
  // Diagnostics left out once max_errors errors were recorded (they still count as errors).
  size_t dropped_errors_ = 0;
  size_t dropped_warnings_ = 0;
  bool at_error_limit() const;
  std::vector<std::shared_ptr<const SourceFile>> kept_files_;
};

}  // namespace helionc
