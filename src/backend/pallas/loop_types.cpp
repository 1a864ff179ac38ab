#include "backend/pallas/loop_types.h"

#include <fmt/format.h>

#include <algorithm>

#include "autotune/resolve_config.h"
#include "backend/pallas/py_expr.h"

namespace helionc::backend::pallas {

KernelLoopTypes::KernelLoopTypes(const ir::Kernel& kernel, const passes::KernelPlan& plan)
    : kernel_(kernel), plan_(plan) {
  for (const passes::Launch& launch : plan.launches) {
    for (size_t i = 0; i < launch.inner_loops.size(); ++i) {
      loops_.push_back({launch.index, static_cast<int>(i)});
    }
  }
}

std::optional<autotune::ResolvedConfig> KernelLoopTypes::resolve(
    const autotune::KernelConfig& config, DiagnosticEngine& diags) {
  std::optional<autotune::ResolvedConfig> resolved =
      autotune::resolve_config(config, kernel_, plan_, diags);
  if (!resolved) return std::nullopt;
  if (std::find(resolved_.begin(), resolved_.end(), resolved->strategies) == resolved_.end()) {
    resolved_.push_back(resolved->strategies);
  }
  return resolved;
}

size_t KernelLoopTypes::first_loop(int launch) const {
  return passes::first_inner_loop(plan_, launch);
}

std::vector<LoopTypes> KernelLoopTypes::variants(int launch) const {
  const size_t first = first_loop(launch);
  const size_t count = plan_.launches[launch].inner_loops.size();
  std::vector<LoopTypes> result;
  for (const LoopTypes& types : resolved_) {
    LoopTypes local(types.begin() + static_cast<std::ptrdiff_t>(first),
                    types.begin() + static_cast<std::ptrdiff_t>(first + count));
    if (std::find(result.begin(), result.end(), local) == result.end()) result.push_back(local);
  }
  if (result.empty()) result.emplace_back();
  return result;
}

std::string KernelLoopTypes::python_tuple(const LoopTypes& types) {
  std::vector<std::string> names;
  names.reserve(types.size());
  for (passes::LoopStrategy type : types) {
    names.push_back(py_string(std::string(passes::loop_strategy_name(type))));
  }
  return py_tuple(names);
}

bool kernel_reads_config(const ir::Kernel& kernel, const passes::KernelPlan& plan) {
  const bool reordered =
      std::any_of(plan.launches.begin(), plan.launches.end(), [](const passes::Launch& launch) {
        if (!passes::orders_grid(launch)) return false;
        const std::vector<int64_t> order = passes::default_grid_order(launch);
        return !std::is_sorted(order.begin(), order.end());
      });
  const bool inner_loops =
      std::any_of(plan.launches.begin(), plan.launches.end(),
                  [](const passes::Launch& launch) { return !launch.inner_loops.empty(); });
  return kernel.num_tunable_blocks > 0 || inner_loops || !kernel.user_tunables.empty() || reordered;
}

}  // namespace helionc::backend::pallas
