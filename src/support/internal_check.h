// Internal invariants. HELIONC_CHECK(cond, msg) and HELIONC_UNREACHABLE(msg) are for bugs in
// helionc itself, never for errors in the user's input (those are diagnostics): when one fires
// the compiler prints
//
//   helionc: internal error: <msg> [check `cond` failed] (src/ir/verify.cpp:42)
//
// to stderr and exits with status 3, distinct from 1 (compile errors) and 2 (usage errors), so
// build systems and the test-suite can tell a compiler bug from a bad kernel. The process
// exits at once (std::_Exit: no destructors run on a state that is known to be broken, and no
// output file is written, since outputs are only renamed into place after a clean compile).
#pragma once

#include <string_view>

namespace helionc {

inline constexpr int kInternalErrorExitStatus = 3;

// Called by internal_error() after printing, before exiting, when set: the fuzz targets set
// it to std::abort so that an internal error is a finding libFuzzer keeps.
extern void (*internal_error_handler)();

// Prints the message above and exits with kInternalErrorExitStatus. `condition` may be null
// (for HELIONC_UNREACHABLE).
[[noreturn]] void internal_error(std::string_view message, const char* condition, const char* file,
                                 int line);

}  // namespace helionc

// `msg` is anything convertible to std::string_view (a literal, a std::string, fmt::format).
// It is evaluated only when the check fails.
#define HELIONC_CHECK(cond, msg)                                   \
  do {                                                             \
    if (!(cond)) [[unlikely]]                                      \
      ::helionc::internal_error((msg), #cond, __FILE__, __LINE__); \
  } while (false)

#define HELIONC_UNREACHABLE(msg) ::helionc::internal_error((msg), nullptr, __FILE__, __LINE__)
