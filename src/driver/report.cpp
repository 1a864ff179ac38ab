#include "driver/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "autotune/legality.h"
#include "autotune/resolve_config.h"
#include "driver/call_shapes.h"
#include "passes/host_values.h"
#include "passes/launch_resources.h"

namespace helionc::driver {

namespace {

using passes::LoopStrategy;

// 1234567 -> "1,234,567".
std::string grouped(int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  std::string result;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) result += ',';
    result += digits[i];
  }
  return value < 0 ? "-" + result : result;
}

std::string bytes_text(int64_t bytes) {
  return fmt::format("{} B ({})", grouped(bytes), autotune::format_bytes(bytes));
}

// Left-aligned columns, two spaces apart, no trailing blanks.
class Table {
 public:
  explicit Table(std::vector<std::string> header) { rows_.push_back(std::move(header)); }
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  std::string render(std::string_view indent) const {
    std::vector<size_t> widths;
    for (const auto& row : rows_) {
      widths.resize(std::max(widths.size(), row.size()), 0);
      for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
    }
    std::string text;
    for (const auto& row : rows_) {
      std::string line(indent);
      for (size_t c = 0; c < row.size(); ++c) {
        line += row[c];
        if (c + 1 < row.size()) line += std::string(widths[c] - row[c].size() + 2, ' ');
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      text += line + "\n";
    }
    return text;
  }

 private:
  std::vector<std::vector<std::string>> rows_;
};

// One config to report, with the shapes to report it for.
struct ReportedConfig {
  std::string label;
  autotune::KernelConfig config;
  std::vector<ShapeSet> shapes;
  std::string no_shapes;        // why there are none ("" when there are)
  bool dtypes_assumed = false;  // a YAML entry without dtypes: float32 assumed
};

std::string config_summary(const autotune::KernelConfig& config, size_t tunables) {
  std::vector<std::string> parts;
  std::vector<std::string> sizes;
  for (size_t i = 0; i < std::max(tunables, config.block_sizes.size()); ++i) {
    sizes.push_back(i < config.block_sizes.size() ? std::to_string(config.block_sizes[i])
                                                  : "default");
  }
  if (!sizes.empty()) parts.push_back(fmt::format("block_sizes [{}]", fmt::join(sizes, ", ")));
  if (!config.pallas_loop_type.empty()) {
    parts.push_back(fmt::format("pallas_loop_type [{}]", fmt::join(config.pallas_loop_type, ", ")));
  }
  if (!config.pallas_load_buffer_count.empty()) {
    parts.push_back(fmt::format("pallas_load_buffer_count [{}]",
                                fmt::join(config.pallas_load_buffer_count, ", ")));
  }
  if (config.vmem_limit_bytes) {
    parts.push_back(fmt::format("vmem_limit_bytes {}", *config.vmem_limit_bytes));
  }
  return parts.empty() ? "no tunables" : fmt::format("{}", fmt::join(parts, "; "));
}

// What the report says of a kernel without an `hl.tile`/`hl.grid` loop, with shapes or without.
constexpr std::string_view kNoLaunches =
    "no launches: the kernel has no `hl.tile` or `hl.grid` loop (host code only)";

class KernelReport {
 public:
  KernelReport(const ir::Kernel& kernel, const passes::KernelPlan& plan,
               const autotune::ConfigFile* config, const autotune::TargetInfo& target,
               DiagnosticEngine& diags)
      : kernel_(kernel),
        plan_(plan),
        config_(config),
        target_(target),
        diags_(diags),
        tensors_(tensor_params(kernel)) {}

  // Whether `set` is a call of this kernel: every name a tensor parameter, ranks matching.
  // Sets an explanation when it is not.
  bool accepts(const ShapeSet& set, std::string& why) const {
    return call_matches(kernel_, set, why);
  }

  std::optional<std::string> print(const std::vector<ShapeSet>& shapes) {
    std::string text =
        fmt::format("kernel {} ({})\n", kernel_.name, file_name_and_line(kernel_.name_range));
    for (const ReportedConfig& reported : configs(shapes)) {
      text += fmt::format(
          "  config {}: {}\n", reported.label,
          config_summary(reported.config, static_cast<size_t>(kernel_.num_tunable_blocks)));
      if (reported.shapes.empty()) {
        text += fmt::format("    {}\n", reported.no_shapes);
        continue;
      }
      // The configs were checked against the kernel (autotune::check_module_configs).
      auto resolved = autotune::resolve_config(reported.config, kernel_, plan_, diags_);
      if (!resolved) return std::nullopt;
      for (const ShapeSet& set : reported.shapes) {
        text += shapes_report(reported.config, *resolved, set, reported.dtypes_assumed);
      }
    }
    return text;
  }

 private:
  std::vector<ReportedConfig> configs(const std::vector<ShapeSet>& shapes) const {
    std::vector<ReportedConfig> result;
    ReportedConfig fallback;
    fallback.config = autotune::default_config(kernel_, config_);
    if (config_ && config_->default_config.range.valid()) {
      fallback.label =
          fmt::format("default ({})", file_name_and_line(config_->default_config.range));
    } else if (!kernel_.builtin_configs.empty()) {
      fallback.label = fmt::format("default (the decorator's, {})",
                                   file_name_and_line(kernel_.builtin_configs[0].range));
    } else {
      fallback.label = "default (built-in)";
    }
    for (const ShapeSet& set : shapes) {
      std::string why;
      if (accepts(set, why)) fallback.shapes.push_back(set);
    }
    if (fallback.shapes.empty() && plan_.launches.empty()) {
      fallback.no_shapes = kNoLaunches;  // no figures to give, whatever the shapes
    } else if (fallback.shapes.empty()) {
      std::vector<std::string> example;
      for (const TensorParam& p : tensors_) {
        std::vector<std::string> dims(static_cast<size_t>(std::max(p.rank, 1)), "N");
        example.push_back(fmt::format("{}={}:bf16", p.name, fmt::join(dims, "x")));
      }
      fallback.no_shapes =
          fmt::format("no figures: the default config needs shapes, e.g. --shapes '{}'",
                      fmt::join(example, ","));
    }
    result.push_back(std::move(fallback));
    if (config_) {
      for (size_t i = 0; i < config_->configs.size(); ++i) {
        const autotune::ShapeEntry& entry = config_->configs[i];
        ReportedConfig reported;
        reported.label = fmt::format("{} ({})", i + 1, file_name_and_line(entry.range));
        reported.config = entry.config;
        ShapeSet set = entry_call(kernel_, entry, reported.dtypes_assumed);
        reported.shapes.push_back(std::move(set));
        result.push_back(std::move(reported));
      }
    }
    return result;
  }

  std::string shapes_report(const autotune::KernelConfig& config,
                            const autotune::ResolvedConfig& resolved, const ShapeSet& set,
                            bool dtypes_assumed) const {
    std::string text =
        fmt::format("    shapes {}{}\n", set.text,
                    dtypes_assumed ? "  (the entry gives no dtypes: float32 assumed)" : "");
    const passes::HostValues values = call_values(kernel_, set);
    std::vector<std::string> problems;  // launches that do not fit
    std::vector<std::string> unknown;   // launches that could not be accounted
    for (const passes::Launch& launch : plan_.launches) {
      const passes::LaunchChoices choices =
          autotune::launch_choices(config, resolved, plan_, launch, target_);
      text += launch_report(launch, choices, values, config, problems, unknown);
    }
    if (plan_.launches.empty()) {
      text += fmt::format("      {}\n", kNoLaunches);
    }
    std::string verdict = "fits";
    if (!problems.empty()) {
      verdict = fmt::format("DOES NOT FIT: {}", fmt::join(problems, "; "));
    } else if (!unknown.empty()) {
      verdict = fmt::format("unknown: {} not accounted", fmt::join(unknown, ", "));
    }
    text += fmt::format("      verdict: {}\n", verdict);
    return text;
  }

  std::string launch_report(const passes::Launch& launch, const passes::LaunchChoices& choices,
                            const passes::HostValues& values, const autotune::KernelConfig& config,
                            std::vector<std::string>& problems,
                            std::vector<std::string>& unknown) const {
    std::string text = fmt::format("      launch {} ({})", launch.index,
                                   file_name_and_line(launch.tile_loop().range));
    Expected<passes::LaunchResources> resources =
        passes::account_launch(kernel_, launch, values, choices);
    if (!resources) {
      unknown.push_back(fmt::format("launch {}", launch.index));
      return text + fmt::format(": not computed: {}\n", resources.error());
    }
    std::vector<std::string> axes;
    for (size_t a = 0; a < resources->grid.size(); ++a) {
      axes.push_back(fmt::format("{} {}", resources->grid_names[a], resources->grid[a]));
    }
    text += fmt::format(": grid ({}) = {} step{}\n", fmt::join(axes, ", "),
                        grouped(resources->grid_steps), resources->grid_steps == 1 ? "" : "s");
    std::vector<std::string> blocks;
    for (size_t g = 0; g < launch.grid.size(); ++g) {
      const ir::TileDim& dim = kernel_.tile_dims[launch.grid[g].tile_dim];
      blocks.push_back(fmt::format("{} {} ({} block{})", dim.name, resources->blocks[g],
                                   resources->dim_steps[g],
                                   resources->dim_steps[g] == 1 ? "" : "s"));
    }
    if (!blocks.empty()) text += fmt::format("        blocks: {}\n", fmt::join(blocks, ", "));
    Table table({"operand", "kind", "memory", "block", "dtype", "buffers", "VMEM bytes",
                 "HBM bytes", "note"});
    for (const passes::OperandResources& r : resources->operands) {
      static constexpr const char* kKinds[] = {"input", "output", "scratch", "stream"};
      std::vector<std::string> dims;
      for (int64_t d : r.block) dims.push_back(std::to_string(d));
      const bool moves = r.kind == passes::OperandResources::Kind::kInput ||
                         r.kind == passes::OperandResources::Kind::kOutput;
      table.add({r.name, kKinds[static_cast<int>(r.kind)], r.memory,
                 dims.empty() ? "()" : fmt::format("{}", fmt::join(dims, "x")),
                 std::string(ir::dtype_name(r.dtype)),
                 r.buffers == 0 ? "-" : std::to_string(r.buffers),
                 r.memory == "SMEM" ? fmt::format("(SMEM {})", grouped(r.smem_bytes))
                                    : grouped(r.vmem_bytes),
                 moves ? grouped(r.hbm_bytes) : "-", r.note});
    }
    text += table.render("        ");
    // The values the body holds in VMEM besides its blocks, a line each (docs/guide/tuning.md
    // says how each is counted): what, its bytes, how many, and the noun they count.
    struct Held {
      std::string_view what;
      int64_t bytes;
      int count;
      std::string_view counted;  // "{} value{}": the count, then "s" for several
    };
    for (const Held& held : {
             Held{"narrow values", resources->narrow_value_bytes,
                  // none shown when the call makes every one of them long (0 bytes)
                  resources->narrow_value_bytes > 0 ? resources->narrow_values : 0,
                  "the {} value{} the body computes with a last axis of a few elements, held in "
                  "VMEM at whole register tiles"},
             Held{"sorts", resources->sort_bytes, resources->sorted_shapes,
                  "the working set of the loops sorting {} shape{} of rows"},
             Held{"gathers and scatters", resources->one_hot_bytes, resources->one_hots,
                  "the compares of {} tile{} of indices with the axis they pick along"},
             Held{
                 "reductions", resources->reduction_bytes, resources->reduced_shapes,
                 "{} shape{} of values held at 32 bits while reductions or scans along their lanes "
                 "run"},
             Held{"full-precision products", resources->product_bytes,
                  // none shown when the call's dtypes make every product bfloat16 (0 bytes)
                  resources->product_bytes > 0 ? resources->precise_products : 0,
                  "the bfloat16 parts of the operands and the result of {} product{}"},
             Held{"random draws", resources->random_bytes, resources->random_draws,
                  "the Philox words of {} draw{}"},
             Held{"lane moves", resources->lane_move_bytes,
                  // none shown where the target or the call's blocks take no scratch (0 bytes)
                  resources->lane_move_bytes > 0 ? resources->lane_moves : 0,
                  "the compiler's scratch for moving {} shape{} of reduction results into lanes"},
             Held{"loop-invariant values", resources->hoisted_bytes,
                  // none shown when every one is a scalar (0 bytes)
                  resources->hoisted_bytes > 0 ? resources->hoisted_values : 0,
                  "{} value{} computed once before an inner loop and held across its steps"},
         }) {
      if (held.count == 0) continue;
      text += fmt::format(
          "        {}: {} B for {} (docs/guide/tuning.md)\n", held.what, grouped(held.bytes),
          fmt::format(fmt::runtime(held.counted), held.count, held.count == 1 ? "" : "s"));
    }
    const autotune::LaunchVerdict verdict =
        autotune::judge_launch(*resources, target_, config.vmem_limit_bytes);
    if (!verdict.fits)
      problems.push_back(fmt::format("launch {} {}", launch.index, verdict.reason));
    text += fmt::format("        VMEM {} of {} ({}): {}\n", bytes_text(resources->vmem_bytes),
                        autotune::format_bytes(verdict.vmem_capacity), verdict.capacity_source,
                        verdict.fits ? "fits" : "DOES NOT FIT");
    if (resources->smem_bytes > 0) {
      text += fmt::format("        SMEM {} of {} for operands\n", bytes_text(resources->smem_bytes),
                          autotune::format_bytes(autotune::smem_capacity(target_)));
    }
    text += fmt::format("        HBM  {}\n", bytes_text(resources->hbm_bytes));
    text += fmt::format("        flops {}, transcendentals {}\n", grouped(resources->flops),
                        grouped(resources->transcendentals));
    for (size_t i = 0; i < launch.inner_loops.size(); ++i) {
      const passes::InnerLoop& inner = launch.inner_loops[i];
      std::vector<std::string> dims;
      for (int d : inner.tile_loop().tile_dims) dims.push_back(kernel_.tile_dims[d].name);
      text += fmt::format("        inner loop {} ({}, {}): {}", i,
                          file_name_and_line(inner.loop->range), fmt::join(dims, ", "),
                          passes::loop_strategy_name(choices.strategies[i]));
      const auto strategy = choices.strategies[i];
      if (strategy == LoopStrategy::kEmitPipeline || strategy == LoopStrategy::kForiLoop) {
        text += fmt::format(" ({} buffer{})", choices.buffer_counts[i],
                            choices.buffer_counts[i] == 1 ? "" : "s");
      }
      text += "\n";
      for (int s = 0; s < passes::kLoopStrategyCount; ++s) {
        const auto other = static_cast<LoopStrategy>(s);
        if (other == strategy) continue;
        const std::string& reason = inner.reason_against(other);
        text += fmt::format("          {}: {}\n", passes::loop_strategy_name(other),
                            reason.empty() ? "applies" : "does not apply: " + reason);
      }
    }
    return text;
  }

  const ir::Kernel& kernel_;
  const passes::KernelPlan& plan_;
  const autotune::ConfigFile* config_;
  const autotune::TargetInfo& target_;
  DiagnosticEngine& diags_;
  std::vector<TensorParam> tensors_;
};

}  // namespace

Expected<std::string> report_resources(const ReportInput& input, DiagnosticEngine& diags) {
  const ir::Module& module = *input.module;
  const autotune::TargetInfo& target = *input.target;
  std::string text = fmt::format(
      "# resources per launch for target {}: {} VMEM, {} SMEM per core\n", target.name,
      autotune::format_bytes(target.vmem_bytes), autotune::format_bytes(target.smem_bytes));
  std::vector<KernelReport> reports;
  for (size_t k = 0; k < module.kernels.size(); ++k) {
    const auto& config = (*input.configs)[k];
    reports.emplace_back(module.kernels[k], (*input.plans)[k], config ? &*config : nullptr, target,
                         diags);
  }
  // Every --shapes call must be a call of some kernel.
  for (const ShapeSet& set : *input.shapes) {
    std::string why;
    bool accepted = false;
    for (const KernelReport& report : reports) accepted = accepted || report.accepts(set, why);
    if (!accepted) return Error{fmt::format("--shapes call `{}`: {}", set.text, why)};
  }
  for (KernelReport& report : reports) {
    text += "\n";
    if (auto kernel_text = report.print(*input.shapes)) text += *kernel_text;
  }
  return text;
}

}  // namespace helionc::driver
