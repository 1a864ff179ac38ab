#include "driver/version_text.h"

#include <fmt/format.h>
#include <tree_sitter/api.h>

#include "driver/git_revision.h"
#include "driver/version.h"
#include "parse/syntax_tree.h"

namespace helionc::driver {

std::string version_text() {
  // The runtime is named by the npm tree-sitter package whose vendored library grammar/ builds
  // (grammar/README.md), and by the grammar ABIs it accepts, which is what decides whether a
  // grammar loads.
  return fmt::format(
      "helionc {} (git {})\n"
      "grammar: tree-sitter-python {}\n"
      "runtime: tree-sitter library {}, grammar ABI {} to {}\n",
      kHelioncVersion, kGitRevision, parse::grammar_version(), HELIONC_TREE_SITTER_RUNTIME_VERSION,
      TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION, TREE_SITTER_LANGUAGE_VERSION);
}

}  // namespace helionc::driver
