// Diagnostics: collected while compiling, rendered in GCC's shape (`file:line:col: error: msg`,
// the source line, a caret under the range, `note:` lines) or as JSON.
//
// Message style (from Carbon): lowercase, no trailing period, code in backticks, the situation
// first and then the fix, e.g. "`while` loops are not supported in device code; use
// `for ... in hl.tile(...)`".
#pragma once

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
};

enum class DiagnosticsFormat { kText, kJson };

struct DiagnosticOptions {
  bool color = false;
  DiagnosticsFormat format = DiagnosticsFormat::kText;
  bool warnings_as_errors = false;
  bool verbose = false;  // -v: remarks/notes that are otherwise silent
};

class DiagnosticEngine {
 public:
  explicit DiagnosticEngine(DiagnosticOptions options = {}) : options_(options) {}

  // Each call records one diagnostic and returns it so notes can be attached.
  Diagnostic& error(DiagnosticKind kind, SourceRange range, std::string message);
  Diagnostic& warning(DiagnosticKind kind, SourceRange range, std::string message);
  // A remark shown only under -v (skipped functions, ignored GPU-only config keys).
  void remark(SourceRange range, std::string message);

  bool has_errors() const;
  int error_count() const;
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  const DiagnosticOptions& options() const { return options_; }

  // Renders everything recorded so far (text or JSON per the options).
  std::string render() const;

 private:
  DiagnosticOptions options_;
  std::vector<Diagnostic> diagnostics_;
  std::vector<std::string> remarks_;
};

}  // namespace helionc
