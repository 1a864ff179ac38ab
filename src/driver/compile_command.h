// `--autotune --search compile` (issue 28): the cost model's best `--top` candidates of every
// call are compiled to modules, and the runner installed with helionc
// (runtime/measure/helionc_compile.py) compiles each for one chip of the target generation's
// topology (TargetInfo::compile_topology) with JAX's TPU compiler, libtpu, as a TPU host does
// at a kernel's first call; no TPU is needed. A call's winner is the model's best candidate
// that compiled; the others are comments in its YAML entry, with the compiler's message, and
// the entry records what verified it (`verified: {topology, libtpu, jax, candidates,
// compiled}`). Candidates whose compile crashes or hangs get `compiler_crash` or `timeout` and
// the run goes on; the journal lets an interrupted run resume (candidate_runner.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "autotune/search.h"
#include "driver/candidate_runner.h"
#include "driver/shapes.h"

namespace helionc::driver {

// Compiles every call's `found[i]->top` for `topology` and makes the best that compiled the
// call's winner, with `verified:` and the refusals in its outcome. Calls none of whose
// candidates compiled, or a runner that could not run (no libtpu), go to `failures`.
void compile_winners(RunnerRequest request, const std::string& topology,
                     const std::vector<ShapeSet>& shapes,
                     std::vector<std::optional<autotune::CallResult>>& found,
                     std::vector<CallOutcome>& outcomes, std::vector<std::string>& failures);

}  // namespace helionc::driver
