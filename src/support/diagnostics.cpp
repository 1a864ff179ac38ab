// Recording diagnostics; rendering lives in diagnostic_render.cpp.
#include "support/diagnostics.h"

#include <fmt/format.h>

#include <algorithm>

#include "support/internal_check.h"

namespace helionc {

namespace {
constexpr std::string_view kKindNames[] = {
#define HELIONC_DIAGNOSTIC(Name, flag, warning) flag,
#include "support/diagnostic_kinds.def"
#undef HELIONC_DIAGNOSTIC
};
constexpr std::string_view kWarningDescriptions[] = {
#define HELIONC_DIAGNOSTIC(Name, flag, warning) warning,
#include "support/diagnostic_kinds.def"
#undef HELIONC_DIAGNOSTIC
};
}  // namespace

std::string_view diagnostic_kind_name(DiagnosticKind kind) {
  return kKindNames[static_cast<size_t>(kind)];
}

std::string_view warning_description(DiagnosticKind kind) {
  return kWarningDescriptions[static_cast<size_t>(kind)];
}

std::optional<DiagnosticKind> diagnostic_kind_from_name(std::string_view flag) {
  for (size_t i = 0; i < kDiagnosticKindCount; ++i) {
    if (kKindNames[i] == flag) return static_cast<DiagnosticKind>(i);
  }
  return std::nullopt;
}

std::optional<DiagnosticKind> warning_kind_from_name(std::string_view flag) {
  std::optional<DiagnosticKind> kind = diagnostic_kind_from_name(flag);
  if (kind && is_warning_kind(*kind)) return kind;
  return std::nullopt;
}

std::vector<std::string_view> warning_names() {
  std::vector<std::string_view> names;
  for (size_t i = 0; i < kDiagnosticKindCount; ++i) {
    if (is_warning_kind(static_cast<DiagnosticKind>(i))) names.push_back(kKindNames[i]);
  }
  return names;
}

bool DiagnosticEngine::at_error_limit() const {
  return options_.max_errors != 0 && static_cast<size_t>(error_count()) >= options_.max_errors;
}

Diagnostic& DiagnosticEngine::error(DiagnosticKind kind, SourceRange range, std::string message) {
  if (at_error_limit()) {
    ++dropped_errors_;
    discarded_ = {kind, Severity::kError, range, std::move(message), {}};
    return discarded_;
  }
  diagnostics_.push_back({kind, Severity::kError, range, std::move(message), {}});
  return diagnostics_.back();
}

Diagnostic& DiagnosticEngine::warning(DiagnosticKind kind, SourceRange range, std::string message) {
  // Only the .def's warning kinds have a -W name that --help lists and -Wno- takes.
  HELIONC_CHECK(
      is_warning_kind(kind),
      fmt::format("`{}` is not a warning kind (diagnostic_kinds.def)", diagnostic_kind_name(kind)));
  // The same warning at the same place is reported once: a config is resolved by several
  // passes (checking, printing, reports), each of which may find the same thing.
  const bool repeated =
      std::any_of(diagnostics_.begin(), diagnostics_.end(), [&](const Diagnostic& d) {
        return d.kind == kind && d.range.file == range.file && d.range.begin == range.begin &&
               d.range.end == range.end && d.message == message &&
               (d.severity == Severity::kWarning || d.promoted_from_warning);
      });
  if (!warning_enabled(kind) || repeated || at_error_limit()) {
    if (warning_enabled(kind) && !repeated) {
      ++(options_.warnings_as_errors ? dropped_errors_ : dropped_warnings_);
    }
    discarded_ = {kind, Severity::kWarning, range, std::move(message), {}};
    return discarded_;
  }
  Diagnostic& d = diagnostics_.emplace_back(
      Diagnostic{kind, Severity::kWarning, range, std::move(message), {}});
  if (options_.warnings_as_errors) {
    d.severity = Severity::kError;
    d.promoted_from_warning = true;
  }
  return d;
}

void DiagnosticEngine::remark(SourceRange range, std::string message) {
  if (!options_.verbose) return;
  remarks_.push_back({diagnostics_.size(), range, std::move(message)});
}

bool DiagnosticEngine::has_errors() const { return error_count() > 0; }

int DiagnosticEngine::error_count() const {
  return static_cast<int>(dropped_errors_ + std::count_if(diagnostics_.begin(), diagnostics_.end(),
                                                          [](const Diagnostic& d) {
                                                            return d.severity == Severity::kError;
                                                          }));
}

int DiagnosticEngine::warning_count() const {
  return static_cast<int>(
      std::count_if(diagnostics_.begin(), diagnostics_.end(),
                    [](const Diagnostic& d) { return d.severity == Severity::kWarning; }));
}

bool DiagnosticEngine::set_warning_enabled(std::string_view flag, bool enabled) {
  std::optional<DiagnosticKind> kind = warning_kind_from_name(flag);
  if (!kind) return false;
  warning_disabled_[static_cast<size_t>(*kind)] = !enabled;
  return true;
}

bool DiagnosticEngine::warning_enabled(DiagnosticKind kind) const {
  return !warning_disabled_[static_cast<size_t>(kind)];
}

void DiagnosticEngine::keep_alive(std::shared_ptr<const SourceFile> file) {
  if (file) kept_files_.push_back(std::move(file));
}

std::string DiagnosticEngine::render() const {
  return options_.format == DiagnosticsFormat::kJson ? render_json() : render_text();
}

}  // namespace helionc
