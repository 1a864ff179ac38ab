// `--autotune --search measure` (issue 10): the cost model's best `--top` candidates of every
// call are compiled to modules and timed on the local JAX device by the runner installed with
// helionc (runtime/measure/helionc_measure.py; README.md, "Measured search"). Each candidate runs
// in its own process with a timeout and its output is checked against the module compiled with
// the kernel's own default config; the runner records every candidate's status (ok,
// compile_error, timeout, runtime_error, accuracy_fail) in a journal, one JSON line each, so
// an interrupted run resumes with `--resume`. Without a TPU the interpreter is timed, which
// tests the plumbing only; the runner and the YAML say so.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "autotune/search.h"
#include "driver/candidate_runner.h"
#include "driver/shapes.h"

namespace helionc::driver {

// Times every call's `found[i]->top` and makes the fastest that ran correctly the call's
// winner (its model figures stay the prediction), with `measured:` in its outcome. Calls no
// candidate of which ran correctly, or a runner that failed, go to `failures`.
void measure_winners(RunnerRequest request, const std::vector<ShapeSet>& shapes,
                     std::vector<std::optional<autotune::CallResult>>& found,
                     std::vector<CallOutcome>& outcomes, std::vector<std::string>& failures);

}  // namespace helionc::driver
