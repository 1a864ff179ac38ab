// `--emit report`: per kernel, per config (the default, and every shape entry of its
// `--config` YAML) and per launch, the resources the generated module will use for concrete
// shapes: grid, blocks, VMEM bytes against the target's capacity, HBM bytes moved, flops, and
// per inner loop the strategy and why the others do not apply. The figures come from
// passes/launch_resources.h, the fits/does-not-fit decision from autotune/legality.h.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "autotune/config.h"
#include "autotune/targets.h"
#include "driver/shapes.h"
#include "ir/nodes.h"
#include "passes/launch_plan.h"
#include "support/diagnostics.h"
#include "support/expected.h"

namespace helionc::driver {

struct ReportInput {
  const ir::Module* module = nullptr;
  const std::vector<passes::KernelPlan>* plans = nullptr;
  const std::vector<std::optional<autotune::ConfigFile>>* configs = nullptr;  // per kernel
  const autotune::TargetInfo* target = nullptr;
  const std::vector<ShapeSet>* shapes = nullptr;  // --shapes: for the default configs
};

// The report's text. Config problems are reported through `diags` (the text is then
// incomplete: check diags.has_errors()); a `--shapes` call that fits no kernel is returned as
// an Error (a usage error).
Expected<std::string> report_resources(const ReportInput& input, DiagnosticEngine& diags);

}  // namespace helionc::driver
