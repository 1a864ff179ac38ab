// What a config means for one kernel: the single place where a config (a YAML `default:` or
// entry, or a decorator's config) is checked against the kernel and its launch plan and its
// defaults are filled in. The module printer, `--emit report`, `--emit ir` and the search all
// call it, so a config is refused the same way whatever is emitted.
#pragma once

#include <optional>
#include <vector>

#include "autotune/config.h"
#include "ir/nodes.h"
#include "passes/launch_plan.h"
#include "support/diagnostics.h"

namespace helionc::autotune {

// The config used for calls that no shape entry matches: the YAML's `default:` when the file
// has one, else the decorator's first config, else all defaults (`config` may be null).
KernelConfig default_config(const ir::Kernel& kernel, const ConfigFile* config);

// The value `config` gives `hl.register_tunable` key `tunable` (checked by resolve_config), or
// the fragment's default when it gives none; booleans are 0 or 1.
int64_t user_tunable_value(const KernelConfig& config, const ir::UserTunable& tunable);

// How the kernel names what a config's keys refer to, for write_config_yaml: its parameters as
// calls name them (`x`, `xs.0`), in order, and the tiles each block size sizes (`tile_m`; a
// block size shared by several tiles names them all, `tile_m/tile_n`; one no tile uses, a
// registered block size only read as a value, is `block_sizes[i]`).
ConfigLabels config_labels(const ir::Kernel& kernel);

// Where a key's value is in the file (the config's own range when the key is absent).
SourceRange value_range(const KernelConfig& config, const std::string& key);

struct ResolvedConfig {
  // One strategy per inner loop of the kernel, in order of appearance: the config's
  // `pallas_loop_type`, the rest taking passes::default_strategy.
  std::vector<passes::LoopStrategy> strategies;
  // `pallas_load_buffer_count` in helionc's form: one count per inner loop, in the same order
  // (fewer: the rest take passes::kDefaultBufferCount). A config may give Helion's form, one
  // count per tensor parameter; resolve_config turns it into this.
  std::vector<int64_t> buffer_counts;
};

// Checks `config` against `kernel`: `block_sizes` has at most one entry per tunable block size
// (any number for a kernel with an any-rank tile), `pallas_loop_type` names a strategy that
// applies to each inner loop it covers and has no more entries than there are inner loops,
// `pallas_load_buffer_count` has at most one entry per inner loop or exactly one per tensor
// parameter (ResolvedConfig::buffer_counts), `loop_orders` has one permutation of the right
// length per multi-dimensional launch. `pallas_pre_broadcast` is accepted either way and changes
// nothing: in Helion it only chooses a formulation of the streaming loops (loop-carried scratch
// widened to 128 lanes so that (block, 1) values need no broadcast inside the loop), computing
// the same result, and helionc's kernels have one formulation, broadcasting where a value is
// used; so Helion's configs run as they are. Errors point at the offending value; nullopt after
// any.
std::optional<ResolvedConfig> resolve_config(const KernelConfig& config, const ir::Kernel& kernel,
                                             const passes::KernelPlan& plan,
                                             DiagnosticEngine& diags);

// resolve_config for the default config and every shape entry of `config` (may be null), and
// each entry's `shapes`/`dtypes` against the kernel's tensor parameters.
bool check_configs(const ir::Kernel& kernel, const passes::KernelPlan& plan,
                   const ConfigFile* config, DiagnosticEngine& diags);

// check_configs for every planned kernel of a module; `configs` is by kernel index (--config
// files matched to kernels; may be shorter). What the driver calls for every --emit.
bool check_module_configs(const ir::Module& module, const std::vector<passes::KernelPlan>& plans,
                          const std::vector<std::optional<ConfigFile>>& configs,
                          DiagnosticEngine& diags);

}  // namespace helionc::autotune
