// The one list of diagnostic kinds. Each kind has a stable name used by -W<name>/-Wno-<name>
// (for warnings) and by the JSON output. Kinds are declared in diagnostic_kinds.def.
#pragma once

#include <cstddef>
#include <string_view>

namespace helionc {

enum class DiagnosticKind {
#define HELIONC_DIAGNOSTIC(Name, flag, warning) Name,
#include "support/diagnostic_kinds.def"
#undef HELIONC_DIAGNOSTIC
};

inline constexpr size_t kDiagnosticKindCount = 0
#define HELIONC_DIAGNOSTIC(Name, flag, warning) +1
#include "support/diagnostic_kinds.def"
#undef HELIONC_DIAGNOSTIC
    ;

// The kebab-case name of a kind ("syntax-error").
std::string_view diagnostic_kind_name(DiagnosticKind kind);

// What a warning of this kind is about (the .def's third column); empty for a kind that is only
// ever an error.
std::string_view warning_description(DiagnosticKind kind);
inline bool is_warning_kind(DiagnosticKind kind) { return !warning_description(kind).empty(); }

}  // namespace helionc
