// Whether a config can run on a target, for given shapes: the one decision `--emit report`
// prints and the autotuner will prune with (product.md §4: "the same legality code the
// compiler uses, not a copy").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "autotune/config.h"
#include "autotune/resolve_config.h"
#include "autotune/targets.h"
#include "passes/launch_resources.h"
#include "support/diagnostics.h"

namespace helionc::autotune {

// The config's choices for one launch. `resolved` is what resolve_config made of the config:
// one strategy and one buffer count per inner loop of the kernel (missing counts are 2); the
// launch's are those from passes::first_inner_loop on. `block_sizes` come from `config`, and
// `loop_orders` at passes::loop_order_entry (a missing entry: the order as written); the
// target gives the compiler's VMEM figures the accounting adds.
passes::LaunchChoices launch_choices(const KernelConfig& config, const ResolvedConfig& resolved,
                                     const passes::KernelPlan& plan, const passes::Launch& launch,
                                     const TargetInfo& target);

struct LaunchVerdict {
  bool fits = true;
  int64_t vmem_capacity = 0;    // what the launch's VMEM is compared with
  std::string capacity_source;  // "tpu-v7x VMEM" or "vmem_limit_bytes"
  std::string reason;           // why it does not fit ("" when it does)
};

// A launch fits when its VMEM bytes are within `vmem_limit_bytes` (when the config sets it)
// or the target's physical VMEM per core, and its SMEM bytes within the target's SMEM.
LaunchVerdict judge_launch(const passes::LaunchResources& resources, const TargetInfo& target,
                           std::optional<int64_t> vmem_limit_bytes);

// Reports (kConfigSchema, at the value's file:line:col) a `vmem_limit_bytes` above the
// target's physical VMEM; `range` is used when the config has no range for the key (built-in
// configs). Returns false after an error.
bool check_vmem_limit(const KernelConfig& config, const TargetInfo& target, DiagnosticEngine& diags,
                      SourceRange range = {});

// "384 KiB", "64 MiB", "1.5 GiB", "100 B": bytes in binary units, one decimal when needed.
std::string format_bytes(int64_t bytes);

}  // namespace helionc::autotune
