// `--autotune --search measure` (issue 10): the cost model's best `--top` candidates of every
// call are compiled to modules and timed on the local JAX device by the runner installed with
// helionc (runtime/measure/helionc_measure.py; README.md, "Measured search"). Each candidate runs
// in its own process with a timeout and its output is checked against the module compiled with
// the kernel's own default config; the runner records every candidate's status (ok,
// compile_error, timeout, runtime_error, accuracy_fail) in a journal, one JSON line each, so
// an interrupted run resumes with `--resume`. Without a TPU the interpreter is timed, which
// tests the plumbing only; the runner and the YAML say so.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "autotune/config.h"
#include "autotune/search.h"
#include "driver/shapes.h"
#include "support/expected.h"

namespace helionc::driver {

struct MeasureCall {
  const ShapeSet* shapes = nullptr;
  std::vector<std::pair<autotune::Candidate, autotune::Evaluation>> candidates;  // model order
};

struct MeasureRequest {
  std::string kernel;  // the public function's name
  std::vector<MeasureCall> calls;
  // The module text compiled with `config` as the default (null: the kernel's own default).
  std::function<Expected<std::string>(const autotune::KernelConfig* config)> emit;
  int runs = 5;
  double timeout_s = 300;
  bool resume = false;
  std::string journal;
  bool quiet = false;
};

struct CandidateTiming {
  std::string status;  // ok, compile_error, timeout, runtime_error, accuracy_fail
  std::optional<double> time_us;
};

struct MeasureResult {
  std::string device;                               // "TPU v5 lite", "cpu (interpret mode)"
  std::vector<std::vector<CandidateTiming>> calls;  // per call, per candidate
};

// Runs the runner over every call's candidates. An Error when the runner cannot be found or
// started, or ends without results.
Expected<MeasureResult> measure_candidates(const MeasureRequest& request);

// The runner: $HELIONC_MEASURE_RUNNER, else share/helionc/measure/ beside the installed binary,
// else the source tree's runtime/measure/ (a build that is not installed).
std::string measure_runner_path();

}  // namespace helionc::driver
