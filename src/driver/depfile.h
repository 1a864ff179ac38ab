// Make-format dependency files (`--depfile FILE`, and GCC's `-MD`, `-MF`, `-MT`, `-MP`), so that
// Make, Ninja and CMake rebuild a module exactly when a file that went into it changes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/expected.h"

namespace helionc::driver {

// What the command line asked for, before the output path is known.
struct DepfileFlags {
  std::optional<std::string> path;   // --depfile FILE or -MF FILE
  bool beside_output = false;        // -MD: the output's path with `.d` for its extension
  std::vector<std::string> targets;  // -MT, verbatim as GCC takes them (repeatable)
  bool phony = false;                // -MP
  bool any() const { return path || beside_output || !targets.empty() || phony; }
};

// A depfile to write: where, the rule's targets (already in Make's syntax), phony targets.
struct DepfileRequest {
  std::string path;
  std::vector<std::string> targets;
  bool phony = false;
};

// Takes GCC's spellings out of `args` (CLI11 2.1 reads `-MF` as the flags `-M` and `-F`): `-MD`,
// `-MP`, `-MF FILE` / `-MFFILE`, `-MT TARGET` / `-MTTARGET`. Returns the other arguments in
// order, or a usage error (a missing value).
Expected<std::vector<std::string>> take_gcc_dependency_flags(std::vector<std::string> args,
                                                             DepfileFlags& flags);

// Decides the depfile for a run writing to `output` ("-" is standard output): none when nothing
// was asked. A usage error when the depfile's name or its target would have to come from
// standard output.
Expected<std::optional<DepfileRequest>> resolve_depfile(const DepfileFlags& flags,
                                                        const std::string& output);

// `path` escaped as GCC writes file names in a depfile: a space or tab gets a backslash (and
// the backslashes before it are doubled), `$` becomes `$$`, `#` and `:` get a backslash.
std::string escape_for_make(std::string_view path);

// The depfile's text: `targets: source inputs...` (one file a line), and with `phony` an empty
// rule for every one of `inputs` (not the source, as GCC spares the main file), so that Make
// does not fail once a config is deleted or renamed. Paths are written as given.
std::string render_depfile(const DepfileRequest& request, const std::optional<std::string>& source,
                           const std::vector<std::string>& inputs);

}  // namespace helionc::driver
