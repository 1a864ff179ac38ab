#include "support/internal_check.h"

#include <fmt/core.h>

#include <cstdio>
#include <cstdlib>

namespace helionc {

namespace {
// Show paths from the repository's src/ folder on, so the message does not depend on where
// helionc was built.
std::string_view short_path(std::string_view file) {
  size_t pos = file.rfind("/src/");
  return pos == std::string_view::npos ? file : file.substr(pos + 1);
}
}  // namespace

void (*internal_error_handler)() = nullptr;

void internal_error(std::string_view message, const char* condition, const char* file, int line) {
  std::fflush(stdout);
  if (condition != nullptr) {
    fmt::print(stderr, "helionc: internal error: {} [check `{}` failed] ({}:{})\n", message,
               condition, short_path(file), line);
  } else {
    fmt::print(stderr, "helionc: internal error: {} ({}:{})\n", message, short_path(file), line);
  }
  std::fflush(stderr);
  if (internal_error_handler != nullptr) internal_error_handler();
  std::_Exit(kInternalErrorExitStatus);
}

}  // namespace helionc
