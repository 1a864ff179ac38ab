// The searches that hand the cost model's best candidates to a Python runner installed with
// helionc (`--search measure`, measure_command.h; `--search compile`, compile_command.h): the
// plan and one module per candidate in a temporary folder, the runner started with
// `HELIONC_PYTHON` (default `python3`), and its results read back. The runners share their
// plan, journal and results formats (runtime/measure/helionc_candidates.py).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "autotune/config.h"
#include "autotune/search.h"
#include "driver/shapes.h"
#include "support/expected.h"

namespace helionc::driver {

struct RunnerCall {
  const ShapeSet* shapes = nullptr;
  std::vector<std::pair<autotune::Candidate, autotune::Evaluation>> candidates;  // model order
};

struct RunnerRequest {
  std::string search;  // "measure" or "compile": the runner helionc_<search>.py, and messages
  std::string kernel;  // the public function's name
  std::vector<RunnerCall> calls;
  // The module text compiled with `config` as the default (null: the kernel's own default).
  std::function<Expected<std::string>(const autotune::KernelConfig* config)> emit;
  bool baseline = false;  // also write the module of the kernel's own default config
  // The plan's fields only this runner reads, as JSON members: `"runs": 5`.
  std::vector<std::string> plan_fields;
  double timeout_s = 300;
  bool resume = false;
  std::string journal;
  bool quiet = false;
  size_t top = 8;  // candidates per call (the search keeps this many)
};

struct CandidateVerdict {
  std::string status;  // the runner's: ok, refused, timeout, ... (empty: missing)
  std::optional<double> time_us;
  std::string message;  // why it is not ok, on one line
};

struct RunnerResult {
  std::map<std::string, std::string> facts;          // "device", "topology", "libtpu", ...
  std::vector<std::vector<CandidateVerdict>> calls;  // per call, per candidate
};

// What a search by a runner decided for one call, beside the winner it set in the call's
// autotune::CallResult: what goes into the call's YAML entry.
struct CallOutcome {
  std::optional<autotune::Measurement> measured;   // --search measure
  std::optional<autotune::Verification> verified;  // --search compile
  std::vector<std::string> comments;               // e.g. the candidates the compiler refused
  // Candidates the check turned down for this call: never the YAML's default either.
  std::vector<autotune::KernelConfig> refused;
};

// Runs the runner over every call's candidates. An Error when the runner cannot be found,
// started or cannot run here (its message says why), or ends without results.
Expected<RunnerResult> run_candidates(const RunnerRequest& request);

// Runs the runner over the calls that have candidates (`found[i]`, its `top`): `calls` are
// their indices, in the order of `result.calls`. Nullopt, with the error in `failures`, when
// the runner could not run.
struct FoundRun {
  std::vector<size_t> calls;
  RunnerResult result;
};
std::optional<FoundRun> run_found_calls(
    RunnerRequest request, const std::vector<ShapeSet>& shapes,
    const std::vector<std::optional<autotune::CallResult>>& found,
    std::vector<std::string>& failures);

// The runner of a search: $HELIONC_<SEARCH>_RUNNER, else share/helionc/measure/ beside the
// installed binary, else the source tree's runtime/measure/ (a build that is not installed).
std::string runner_path(std::string_view search);

// A table row by row, each column padded to its widest cell, two spaces apart, indented.
std::string aligned_table(const std::vector<std::vector<std::string>>& rows);

}  // namespace helionc::driver
