#include "autotune/resolve_config.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "passes/launch_resources.h"
#include "passes/plan_strategies.h"

namespace helionc::autotune {

namespace {

using passes::LoopStrategy;

// The kernel's inner loops in order of appearance (the order of `pallas_loop_type`).
std::vector<const passes::InnerLoop*> inner_loops(const passes::KernelPlan& plan) {
  std::vector<const passes::InnerLoop*> loops;
  for (const passes::Launch& launch : plan.launches) {
    for (const passes::InnerLoop& loop : launch.inner_loops) loops.push_back(&loop);
  }
  return loops;
}

bool has_any_rank_tile(const ir::Kernel& kernel) {
  for (const ir::TileDim& dim : kernel.tile_dims) {
    if (dim.variadic && dim.block.kind == ir::BlockSource::Kind::kTunable) return true;
  }
  return false;
}

std::string plural(size_t count, std::string_view word) {
  return fmt::format("{} {}{}", count, word, count == 1 ? "" : "s");
}

std::string entries(size_t count) {
  return count == 1 ? "1 entry" : fmt::format("{} entries", count);
}

bool check_block_sizes(const KernelConfig& config, const ir::Kernel& kernel,
                       DiagnosticEngine& diags) {
  const auto tunables = static_cast<size_t>(kernel.num_tunable_blocks);
  if (config.block_sizes.size() <= tunables || has_any_rank_tile(kernel)) return true;
  const SourceRange range = config.block_size_ranges.size() > tunables
                                ? config.block_size_ranges[tunables]
                                : config.range;
  diags.error(
      DiagnosticKind::kConfigSchema, range,
      fmt::format("`block_sizes` has {} but kernel `{}` has {}", entries(config.block_sizes.size()),
                  kernel.name, plural(tunables, "tunable block size")));
  return false;
}

std::optional<std::vector<LoopStrategy>> resolve_strategies(const KernelConfig& config,
                                                            const ir::Kernel& kernel,
                                                            const passes::KernelPlan& plan,
                                                            DiagnosticEngine& diags) {
  const std::vector<const passes::InnerLoop*> loops = inner_loops(plan);
  std::vector<std::string> requested = config.pallas_loop_type;
  if (config.pallas_loop_type_for_all && !requested.empty()) {
    requested.assign(loops.size(), requested.front());
  }
  const SourceRange range = value_range(config, "pallas_loop_type");
  if (requested.size() > loops.size()) {
    diags.error(DiagnosticKind::kConfigSchema, range,
                loops.empty()
                    ? fmt::format("`pallas_loop_type` is given but kernel `{}` has no inner loops",
                                  kernel.name)
                    : fmt::format("`pallas_loop_type` has {} but kernel `{}` has {}",
                                  entries(requested.size()), kernel.name,
                                  plural(loops.size(), "inner loop")));
    return std::nullopt;
  }
  std::vector<LoopStrategy> strategies;
  bool ok = true;
  for (size_t i = 0; i < loops.size(); ++i) {
    const passes::InnerLoop& loop = *loops[i];
    if (i >= requested.size()) {
      strategies.push_back(passes::default_strategy(loop));
      continue;
    }
    const std::optional<LoopStrategy> strategy = passes::parse_loop_strategy(requested[i]);
    if (!strategy) {
      diags.error(DiagnosticKind::kConfigSchema, range,
                  fmt::format("unknown `pallas_loop_type` `{}`; expected unroll, emit_pipeline, "
                              "fori_loop or grid",
                              requested[i]));
      ok = false;
      continue;
    }
    if (const std::string& reason = loop.reason_against(*strategy);
        !reason.empty() && config.pallas_loop_type_for_all) {
      // One loop type for every loop (`pallas_loop_type="fori_loop"`, as Helion's configs write
      // it) is a wish for the kernel, which Helion's own backend takes where it can: a loop that
      // cannot run it keeps its default strategy, which computes the same result.
      const LoopStrategy fallback = passes::default_strategy(loop);
      diags
          .warning(DiagnosticKind::kConfigSchema, range,
                   fmt::format("`pallas_loop_type` `{}` does not apply to inner loop {}: {}; it "
                               "runs `{}`",
                               requested[i], i, reason, passes::loop_strategy_name(fallback)))
          .note(loop.loop->range, "the inner loop");
      strategies.push_back(fallback);
      continue;
    }
    if (const std::string& reason = loop.reason_against(*strategy); !reason.empty()) {
      diags
          .error(DiagnosticKind::kConfigSchema, range,
                 fmt::format("`pallas_loop_type` entry {} asks for `{}`, which does not apply to "
                             "this inner loop: {}",
                             i, requested[i], reason))
          .note(loop.loop->range, "the inner loop");
      ok = false;
      continue;
    }
    strategies.push_back(*strategy);
  }
  if (!ok) return std::nullopt;
  return strategies;
}

// The kernel's tensor parameters, in parameter order (Helion's "tensor arguments").
std::vector<const ir::Param*> tensor_params(const ir::Kernel& kernel) {
  std::vector<const ir::Param*> params;
  for (const ir::Param& param : kernel.params) {
    if (kernel.bindings[param.binding].type.kind == ir::TypeKind::kTensor) params.push_back(&param);
  }
  return params;
}

// `pallas_load_buffer_count` in helionc's form, one count per inner loop (fewer: the rest take
// the default). A config may give it in either of two forms:
// - helionc's: at most one entry per inner loop of the kernel, in order of appearance;
// - Helion's: one entry per tensor parameter of the kernel, in parameter order (Helion reads
//   it as the buffers of each input's DMA under `fori_loop`). Each inner loop takes the
//   largest count among the inputs it streams (InnerLoop::streamed_inputs), the default when
//   it streams none of them.
// A list that fits both (as long as the inner loops and no longer) is read in helionc's form;
// one that fits neither is an error naming both lengths.
std::optional<std::vector<int64_t>> loop_buffer_counts(const KernelConfig& config,
                                                       const ir::Kernel& kernel,
                                                       const passes::KernelPlan& plan,
                                                       DiagnosticEngine& diags) {
  const std::vector<int64_t>& given = config.pallas_load_buffer_count;
  const size_t loops = inner_loops(plan).size();
  if (given.size() <= loops) return given;
  const std::vector<const ir::Param*> tensors = tensor_params(kernel);
  if (given.size() != tensors.size()) {
    diags.error(DiagnosticKind::kConfigSchema, value_range(config, "pallas_load_buffer_count"),
                fmt::format("`pallas_load_buffer_count` has {} but kernel `{}` has {} and {}: "
                            "give one count per inner loop, or one per tensor parameter",
                            entries(given.size()), kernel.name, plural(loops, "inner loop"),
                            plural(tensors.size(), "tensor parameter")));
    return std::nullopt;
  }
  std::vector<int64_t> counts;
  for (const passes::Launch& launch : plan.launches) {
    for (const passes::InnerLoop& loop : launch.inner_loops) {
      int64_t count = 0;
      for (int input : loop.streamed_inputs) {
        const int binding = launch.inputs[static_cast<size_t>(input)].operand.binding;
        const auto at = std::find_if(tensors.begin(), tensors.end(), [&](const ir::Param* param) {
          return param->binding == binding;
        });
        if (at != tensors.end()) count = std::max(count, given[at - tensors.begin()]);
      }
      counts.push_back(count > 0 ? count : passes::kDefaultBufferCount);
    }
  }
  return counts;
}

// One permutation per multi-dimensional launch (a top-level `hl.tile` over several dimensions),
// in order, each of that launch's dimensions.
bool check_loop_orders(const KernelConfig& config, const ir::Kernel& kernel,
                       const passes::KernelPlan& plan, DiagnosticEngine& diags) {
  std::vector<size_t> ranks;
  std::vector<const passes::Launch*> launches;  // the multi-dimensional ones, in order
  for (const passes::Launch& launch : plan.launches) {
    if (passes::orders_grid(launch)) {
      ranks.push_back(launch.tile_loop().tile_dims.size());
      launches.push_back(&launch);
    }
  }
  const SourceRange range = value_range(config, "loop_orders");
  if (config.loop_orders.size() > ranks.size()) {
    diags.error(DiagnosticKind::kConfigSchema, range,
                fmt::format("`loop_orders` has {} but kernel `{}` has {}",
                            entries(config.loop_orders.size()), kernel.name,
                            plural(ranks.size(), "multi-dimensional tile loop")));
    return false;
  }
  bool ok = true;
  for (size_t i = 0; i < config.loop_orders.size(); ++i) {
    const std::vector<int64_t>& order = config.loop_orders[i];
    if (order.size() != ranks[i]) {
      diags.error(DiagnosticKind::kConfigSchema, range,
                  fmt::format("`loop_orders` entry {} orders {} but its tile loop has {}", i,
                              plural(order.size(), "dimension"), plural(ranks[i], "dimension")));
      ok = false;
      continue;
    }
    // Steps that update one output block must follow one another: those dimensions innermost.
    if (!passes::order_keeps_revisited_last(*launches[i], order)) {
      const std::vector<int> revisited = passes::revisited_dims(*launches[i]);
      diags.error(DiagnosticKind::kConfigMismatch, range,
                  fmt::format("`loop_orders` entry {} runs another dimension inside dimension{} "
                              "{}, along which the loop updates one output block from several "
                              "steps; such dimensions must come last",
                              i, revisited.size() == 1 ? "" : "s", fmt::join(revisited, ", ")));
      ok = false;
    }
  }
  return ok;
}

// A shape entry's `shapes` and `dtypes` against the kernel's tensor parameters: every name is
// one, every non-optional tensor has a shape of its rank, dtypes for all tensors or none.
bool check_entry_shapes(const ShapeEntry& entry, const ir::Kernel& kernel,
                        DiagnosticEngine& diags) {
  bool ok = true;
  auto error = [&](std::string message) {
    diags.error(DiagnosticKind::kConfigSchema, entry.range, std::move(message));
    ok = false;
  };
  struct Tensor {
    const std::string& name;  // as calls name it (ir::call_name)
    const ir::Type& type;
  };
  std::vector<Tensor> tensors;
  for (const ir::Param* param : tensor_params(kernel)) {
    tensors.push_back({ir::call_name(kernel, *param), kernel.bindings[param->binding].type});
  }
  for (const auto& [name, dims] : entry.shapes) {
    bool known = false;
    for (const Tensor& tensor : tensors) known |= tensor.name == name;
    if (!known) {
      error(fmt::format("`shapes` names `{}`, which is not a tensor parameter of kernel `{}`", name,
                        kernel.name));
    }
  }
  size_t dtypes = 0;
  for (const Tensor& tensor : tensors) {
    auto shape = entry.shapes.find(tensor.name);
    if (shape == entry.shapes.end()) {
      if (tensor.type.optional) {
        if (!entry.dtypes.empty()) ++dtypes;  // an optional argument left out: None for both
        continue;
      }
      error(fmt::format("this entry gives no shape for `{}`", tensor.name));
      return false;
    }
    const int rank = tensor.type.rank;
    if (rank >= 0 && static_cast<int>(shape->second.size()) != rank) {
      error(fmt::format("`{}` has {} dimensions in kernel `{}`, but this entry gives it {}",
                        tensor.name, rank, kernel.name, shape->second.size()));
    }
    dtypes += entry.dtypes.count(tensor.name);
  }
  if (dtypes != 0 && dtypes != tensors.size()) {
    error("give the dtypes of every tensor parameter, or of none");
  }
  return ok;
}

}  // namespace

KernelConfig default_config(const ir::Kernel& kernel, const ConfigFile* config) {
  if (config != nullptr && config->default_config.range.valid()) return config->default_config;
  KernelConfig result;
  result.range = kernel.name_range;
  if (!kernel.builtin_configs.empty()) {
    const ir::BuiltinConfig& builtin = kernel.builtin_configs.front();
    result.block_sizes = builtin.block_sizes;
    result.pallas_loop_type = builtin.pallas_loop_type;
    result.pallas_loop_type_for_all = builtin.pallas_loop_type_for_all;
    result.pallas_load_buffer_count = builtin.pallas_load_buffer_count;
    result.loop_orders = builtin.loop_orders;
    result.vmem_limit_bytes = builtin.vmem_limit_bytes;
    result.pallas_pre_broadcast = builtin.pallas_pre_broadcast;
    for (const auto& [key, value] : builtin.other_keys) {
      // Left only for `hl.register_tunable` keys, checked by the frontend.
      const std::string& name = key;  // a lambda cannot capture a structured binding (C++17)
      const auto tunable = std::find_if(kernel.user_tunables.begin(), kernel.user_tunables.end(),
                                        [&](const ir::UserTunable& t) { return t.name == name; });
      const bool boolean =
          tunable != kernel.user_tunables.end() && tunable->kind == ir::UserTunable::Kind::kBoolean;
      result.tunables[key] = {
          boolean ? (value.first != 0 ? "true" : "false") : std::to_string(value.first), false};
      result.value_ranges[key] = value.second;
    }
    result.range = builtin.range;
  }
  return result;
}

namespace {

// A tunable's value as written in a config (`8`, `true`), or nullopt when it is not an int (or,
// for a boolean, not true/false).
std::optional<int64_t> parse_tunable(const ScalarValue& value, const ir::UserTunable& tunable) {
  if (value.is_string) return std::nullopt;
  if (tunable.kind == ir::UserTunable::Kind::kBoolean) {
    if (value.text == "true" || value.text == "True") return 1;
    if (value.text == "false" || value.text == "False") return 0;
    return std::nullopt;
  }
  int64_t result = 0;
  const char* end = value.text.data() + value.text.size();
  auto [ptr, ec] = std::from_chars(value.text.data(), end, result);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return result;
}

// Every key of `config.tunables` (but `x-` extensions) names a tunable of the kernel and gives
// it a value its fragment allows.
bool check_user_tunables(const KernelConfig& config, const ir::Kernel& kernel,
                         DiagnosticEngine& diags) {
  bool ok = true;
  for (const auto& [key, value] : config.tunables) {
    if (key.starts_with("x-")) continue;
    const std::string& name = key;  // a lambda cannot capture a structured binding (C++17)
    const auto tunable = std::find_if(kernel.user_tunables.begin(), kernel.user_tunables.end(),
                                      [&](const ir::UserTunable& t) { return t.name == name; });
    const SourceRange range = value_range(config, key);
    if (tunable == kernel.user_tunables.end()) {
      diags.error(DiagnosticKind::kConfigSchema, range,
                  fmt::format("`{}` is not a tunable of kernel `{}` (no `hl.register_tunable` "
                              "registers it)",
                              key, kernel.name));
      ok = false;
      continue;
    }
    const std::optional<int64_t> parsed = parse_tunable(value, *tunable);
    if (!parsed || !tunable->allows(*parsed)) {
      diags.error(DiagnosticKind::kConfigSchema, range,
                  fmt::format("tunable `{}` must be {}, not {}", key, tunable->describe_values(),
                              value.is_string ? fmt::format("\"{}\"", value.text) : value.text));
      ok = false;
    }
  }
  return ok;
}

}  // namespace

int64_t user_tunable_value(const KernelConfig& config, const ir::UserTunable& tunable) {
  auto it = config.tunables.find(tunable.name);
  if (it == config.tunables.end()) return tunable.default_value;
  return parse_tunable(it->second, tunable).value_or(tunable.default_value);
}

ConfigLabels config_labels(const ir::Kernel& kernel) {
  ConfigLabels labels;
  for (const ir::Param& param : kernel.params)
    labels.parameters.push_back(ir::call_name(kernel, param));
  for (int tunable = 0; tunable < kernel.num_tunable_blocks; ++tunable) {
    std::vector<std::string> tiles;
    for (const ir::TileDim& dim : kernel.tile_dims) {
      if (dim.block.kind == ir::BlockSource::Kind::kTunable && dim.block.tunable == tunable &&
          std::find(tiles.begin(), tiles.end(), dim.name) == tiles.end()) {
        tiles.push_back(dim.name);
      }
    }
    labels.block_size_tiles.push_back(tiles.empty() ? fmt::format("block_sizes[{}]", tunable)
                                                    : fmt::format("{}", fmt::join(tiles, "/")));
  }
  return labels;
}

SourceRange value_range(const KernelConfig& config, const std::string& key) {
  auto it = config.value_ranges.find(key);
  return it != config.value_ranges.end() ? it->second : config.range;
}

std::optional<ResolvedConfig> resolve_config(const KernelConfig& config, const ir::Kernel& kernel,
                                             const passes::KernelPlan& plan,
                                             DiagnosticEngine& diags) {
  // Every check runs, so one compile reports every problem of the config.
  bool ok = check_block_sizes(config, kernel, diags);
  std::optional<std::vector<int64_t>> buffer_counts =
      loop_buffer_counts(config, kernel, plan, diags);
  ok = buffer_counts.has_value() && ok;
  ok = check_loop_orders(config, kernel, plan, diags) && ok;
  ok = check_user_tunables(config, kernel, diags) && ok;
  std::optional<std::vector<LoopStrategy>> strategies =
      resolve_strategies(config, kernel, plan, diags);
  if (!ok || !strategies) return std::nullopt;
  return ResolvedConfig{std::move(*strategies), std::move(*buffer_counts)};
}

bool check_configs(const ir::Kernel& kernel, const passes::KernelPlan& plan,
                   const ConfigFile* config, DiagnosticEngine& diags) {
  bool ok = resolve_config(default_config(kernel, config), kernel, plan, diags).has_value();
  if (config != nullptr) {
    for (const ShapeEntry& entry : config->configs) {
      ok = check_entry_shapes(entry, kernel, diags) && ok;
      ok = resolve_config(entry.config, kernel, plan, diags).has_value() && ok;
    }
  }
  return ok;
}

bool check_module_configs(const ir::Module& module, const std::vector<passes::KernelPlan>& plans,
                          const std::vector<std::optional<ConfigFile>>& configs,
                          DiagnosticEngine& diags) {
  bool ok = true;
  for (const passes::KernelPlan& plan : plans) {
    const auto k = static_cast<size_t>(plan.kernel);
    const ConfigFile* config = k < configs.size() && configs[k] ? &*configs[k] : nullptr;
    ok = check_configs(module.kernels[k], plan, config, diags) && ok;
  }
  return ok;
}

}  // namespace helionc::autotune
