// `--autotune`: the built-in search (autotune/search.h) for every `--shapes` call of one
// kernel, and the tuning YAML it gives (product.md §3): one entry per call with its best
// config and the model's prediction, and a default, the config of those winners that runs all
// the calls fastest relative to each call's best (summed). Deterministic: the same kernel,
// shapes, target and seed give the same bytes unless the budget runs out. Progress (a live
// line on a terminal, plain lines otherwise) and a summary table per call go to stderr (nothing
// with `-q`): the best config with its predicted time, fraction of peak and bound, and the best
// config of every other strategy combination.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "autotune/config.h"
#include "autotune/search.h"
#include "autotune/targets.h"
#include "driver/candidate_runner.h"
#include "driver/shapes.h"
#include "ir/nodes.h"
#include "passes/launch_plan.h"
#include "support/expected.h"

namespace helionc::driver {

struct AutotuneInput {
  const ir::Kernel* kernel = nullptr;
  const passes::KernelPlan* plan = nullptr;
  const autotune::TargetInfo* target = nullptr;
  const std::vector<ShapeSet>* shapes = nullptr;
  std::string source_sha256;
  std::string helionc_version;
  autotune::SearchOptions search;
  bool quiet = false;
  size_t jobs = 1;  // -j: calls searched at once
  // --search measure or compile (runner.search; empty: the model alone): the model's
  // `runner.top` candidates per call are timed (measure_command.h) or compiled
  // (compile_command.h); `runner.calls` is filled here, the rest comes from the command line.
  RunnerRequest runner;
};

struct AutotuneResult {
  autotune::ConfigFile config;
  std::string yaml;
  // Calls with no legal config, each with why its candidates were refused (the YAML then
  // has no entry for them).
  std::vector<std::string> failures;
  // --search measure or compile could not check some call (the runner failed, or no
  // candidate ran correctly or compiled): why.
  std::vector<std::string> search_failures;
};

// An Error when a `--shapes` call is no call of the kernel (a usage error).
Expected<AutotuneResult> autotune_kernel(const AutotuneInput& input);

}  // namespace helionc::driver
