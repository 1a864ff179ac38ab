// The pass pipeline: the frontend's tile IR in, the scheduled form the backend prints out.
// The passes are listed once, in order, in pipeline.cpp; the state can be dumped after any of
// them (`helionc --dump-after=NAME`) and each can be timed.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/nodes.h"
#include "passes/launch_plan.h"
#include "support/diagnostics.h"

namespace helionc::passes {

struct PipelineOptions {
  // Dump the state after the pass of this name ("all": after every pass; empty: never).
  std::string dump_after;
  // Receives each dump: the pass name and the text (the IR, then any plans).
  std::function<void(std::string_view pass, std::string_view text)> dump;
  // Check the IR's invariants (ir/verifier.h) before the first pass and after every pass;
  // a broken invariant is reported as an internal error.
  bool verify = true;
};

struct PassTiming {
  std::string_view pass;
  double milliseconds = 0;
};

struct PipelineResult {
  ir::Module module;              // the IR after the passes
  std::vector<KernelPlan> plans;  // one per kernel of `module`, in the same order
  std::vector<PassTiming> timings;
};

// The passes in the order they run.
std::vector<std::string_view> pipeline_pass_names();

// Runs every pass over every kernel. Errors go to `diags`; returns nullopt when any kernel
// failed (every kernel is still processed, so all errors are reported at once).
std::optional<PipelineResult> run_pipeline(ir::Module module, const PipelineOptions& options,
                                           DiagnosticEngine& diags);

// The text of a dump: the IR of every kernel, followed by its plan when there is one.
std::string dump_state(const ir::Module& module, const std::vector<KernelPlan>& plans);

}  // namespace helionc::passes
