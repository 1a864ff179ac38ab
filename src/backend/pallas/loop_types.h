// The strategies (`pallas_loop_type`, pallas-target.md §5) of a kernel's inner loops under each
// config the module is compiled with. A config lists one strategy per inner loop of the whole
// kernel, in order of appearance; a launch prints one kernel variant per distinct combination
// of its own loops' strategies that some config uses.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "autotune/config.h"
#include "autotune/resolve_config.h"
#include "passes/launch_plan.h"
#include "support/diagnostics.h"

namespace helionc::backend::pallas {

using LoopTypes = std::vector<passes::LoopStrategy>;

class KernelLoopTypes {
 public:
  KernelLoopTypes(const ir::Kernel& kernel, const passes::KernelPlan& plan);

  size_t loop_count() const { return loops_.size(); }

  // What `config` means for the kernel (autotune::resolve_config, which checks the whole config
  // and fills in defaults). Every successful result's strategies are remembered as a variant of
  // the launches.
  std::optional<autotune::ResolvedConfig> resolve(const autotune::KernelConfig& config,
                                                  DiagnosticEngine& diags);

  // The distinct strategy combinations of `launch`'s inner loops (launch-local order) that
  // resolved configs use, the default's first. One empty combination for a launch without
  // inner loops.
  std::vector<LoopTypes> variants(int launch) const;

  // The position of `launch`'s first inner loop among the kernel's.
  size_t first_loop(int launch) const;

  // Python for the tuple of strategy names: `("grid", "unroll")`.
  static std::string python_tuple(const LoopTypes& types);

  // Some config sets `loop_orders`: the module orders the grids of multi-dimensional launches
  // at trace time (otherwise they run as written, with no ordering code).
  bool loop_orders_given = false;

 private:
  struct Loop {
    int launch = -1;
    int inner = -1;  // index into Launch::inner_loops
  };
  const ir::Kernel& kernel_;
  const passes::KernelPlan& plan_;
  std::vector<Loop> loops_;
  std::vector<LoopTypes> resolved_;  // kernel-level, in order of first resolution
};

// Whether the kernel's public function reads a config: for tunable block sizes, inner-loop
// strategies, tunables of the kernel's own, or the grid order of a loop whose revisited
// dimensions reorder it (passes::default_grid_order, `loop_orders`).
bool kernel_reads_config(const ir::Kernel& kernel, const passes::KernelPlan& plan);

}  // namespace helionc::backend::pallas
