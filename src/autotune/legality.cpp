#include "autotune/legality.h"

#include <fmt/format.h>

#include <cmath>

#include "passes/plan_strategies.h"

namespace helionc::autotune {

passes::LaunchChoices launch_choices(const KernelConfig& config, const ResolvedConfig& resolved,
                                     const passes::KernelPlan& plan, const passes::Launch& launch,
                                     const TargetInfo& target) {
  const size_t first_loop = passes::first_inner_loop(plan, launch.index);
  passes::LaunchChoices choices;
  choices.lane_move_scratch_bytes = target.lane_move_scratch_bytes;
  for (int64_t size : config.block_sizes) choices.block_sizes.emplace_back(size);
  for (size_t i = 0; i < launch.inner_loops.size(); ++i) {
    const size_t k = first_loop + i;
    choices.strategies.push_back(k < resolved.strategies.size()
                                     ? resolved.strategies[k]
                                     : passes::default_strategy(launch.inner_loops[i]));
    choices.buffer_counts.push_back(k < resolved.buffer_counts.size()
                                        ? resolved.buffer_counts[k]
                                        : passes::kDefaultBufferCount);
  }
  const int entry = passes::loop_order_entry(plan, launch.index);
  if (entry >= 0 && static_cast<size_t>(entry) < config.loop_orders.size()) {
    choices.loop_order = config.loop_orders[static_cast<size_t>(entry)];
  }
  return choices;
}

LaunchVerdict judge_launch(const passes::LaunchResources& resources, const TargetInfo& target,
                           std::optional<int64_t> vmem_limit_bytes) {
  LaunchVerdict verdict;
  verdict.vmem_capacity = vmem_limit_bytes ? *vmem_limit_bytes : target.vmem_bytes;
  verdict.capacity_source =
      vmem_limit_bytes ? "vmem_limit_bytes" : fmt::format("{} VMEM", target.name);
  if (resources.vmem_bytes > verdict.vmem_capacity) {
    verdict.fits = false;
    verdict.reason =
        fmt::format("needs {} of VMEM, more than the {} of {}", format_bytes(resources.vmem_bytes),
                    format_bytes(verdict.vmem_capacity), verdict.capacity_source);
  } else if (resources.smem_bytes > smem_capacity(target)) {
    verdict.fits = false;
    verdict.reason = fmt::format(
        "needs {} of SMEM, more than the {} that {} SMEM holds for a kernel's operands",
        format_bytes(resources.smem_bytes), format_bytes(smem_capacity(target)), target.name);
  }
  return verdict;
}

bool check_vmem_limit(const KernelConfig& config, const TargetInfo& target, DiagnosticEngine& diags,
                      SourceRange range) {
  if (!config.vmem_limit_bytes || *config.vmem_limit_bytes <= target.vmem_bytes) return true;
  auto where = config.value_ranges.find("vmem_limit_bytes");
  if (where != config.value_ranges.end()) range = where->second;
  diags.error(DiagnosticKind::kConfigSchema, range,
              fmt::format("`vmem_limit_bytes` is {} ({}), more than the {} ({} bytes) of VMEM "
                          "per core of `{}`",
                          *config.vmem_limit_bytes, format_bytes(*config.vmem_limit_bytes),
                          format_bytes(target.vmem_bytes), target.vmem_bytes, target.name));
  return false;
}

std::string format_bytes(int64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (std::fabs(value) >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0) return fmt::format("{} B", bytes);
  if (value == std::floor(value)) return fmt::format("{:.0f} {}", value, kUnits[unit]);
  return fmt::format("{:.1f} {}", value, kUnits[unit]);
}

}  // namespace helionc::autotune
