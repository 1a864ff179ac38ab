#include "driver/estimate.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "autotune/cost_model.h"
#include "autotune/legality.h"
#include "autotune/resolve_config.h"
#include "autotune/search.h"
#include "driver/call_shapes.h"
#include "passes/launch_resources.h"
#include "support/quote.h"

namespace helionc::driver {

namespace {

// Fixed decimals: the output is the same on every machine and stays a YAML float.
std::string us(double value) { return fmt::format("{:.3f}", value); }

std::string where(const SourceRange& range) {
  if (!range.valid()) return "";
  const LineColumn position = range.file->line_column(range.begin);
  return fmt::format("{}:{}", std::filesystem::path(range.file->path()).filename().string(),
                     position.line);
}

// One config with the calls to estimate it for.
struct EstimatedConfig {
  std::string label;
  autotune::KernelConfig config;
  std::vector<ShapeSet> calls;
};

std::vector<EstimatedConfig> kernel_configs(const ir::Kernel& kernel,
                                            const autotune::ConfigFile* file,
                                            const std::vector<ShapeSet>& shapes) {
  std::vector<EstimatedConfig> configs;
  EstimatedConfig fallback;
  fallback.config = autotune::default_config(kernel, file);
  fallback.label = file && file->default_config.range.valid()
                       ? fmt::format("default ({})", where(file->default_config.range))
                       : "default";
  for (const ShapeSet& set : shapes) {
    std::string why;
    if (call_matches(kernel, set, why)) fallback.calls.push_back(set);
  }
  configs.push_back(std::move(fallback));
  if (file == nullptr) return configs;
  for (size_t i = 0; i < file->configs.size(); ++i) {
    const autotune::ShapeEntry& entry = file->configs[i];
    bool dtypes_assumed = false;
    EstimatedConfig config;
    config.label = fmt::format("{} ({})", i + 1, where(entry.range));
    config.config = entry.config;
    config.calls.push_back(entry_call(kernel, entry, dtypes_assumed));
    configs.push_back(std::move(config));
  }
  return configs;
}

class YamlOut {
 public:
  void line(int indent, const std::string& text) {
    out_ += std::string(static_cast<size_t>(indent), ' ') + text + "\n";
  }
  void append(const std::string& text) { out_ += text; }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

// The launches of one call under one config, and the call's total time.
void estimate_call(const ir::Kernel& kernel, const passes::KernelPlan& plan,
                   const autotune::KernelConfig& config, const autotune::ResolvedConfig& resolved,
                   const ShapeSet& call, const autotune::TargetInfo& target, YamlOut& out) {
  const passes::HostValues values = call_values(kernel, call);
  YamlOut launches;
  double total = 0;
  bool complete = true;
  for (const passes::Launch& launch : plan.launches) {
    launches.line(14, fmt::format("- launch: {}", launch.index));
    if (!autotune::launch_runs(launch, values)) {
      launches.line(16, "runs: false  # an optional tensor it reads is None in this call");
      continue;
    }
    const passes::LaunchChoices choices = autotune::launch_choices(config, resolved, plan, launch);
    Expected<passes::LaunchResources> resources =
        passes::account_launch(kernel, launch, values, choices);
    if (!resources) {
      complete = false;
      launches.line(16, fmt::format("error: {}", double_quoted(resources.error())));
      continue;
    }
    const autotune::Estimate e = autotune::estimate_launch(launch, choices, *resources, target);
    const autotune::LaunchVerdict verdict =
        autotune::judge_launch(*resources, target, config.vmem_limit_bytes);
    total += e.time_us;
    launches.line(16, fmt::format("time_us: {}", us(e.time_us)));
    launches.line(16, fmt::format("tflops: {}", us(e.tflops)));
    launches.line(16, fmt::format("fraction_of_peak: {:.4f}", e.fraction_of_peak));
    launches.line(16, fmt::format("bound: {}", double_quoted(autotune::bound_name(e.bound))));
    launches.line(16, fmt::format("fits: {}", verdict.fits ? "true" : "false"));
    if (!verdict.fits) launches.line(16, fmt::format("why: {}", double_quoted(verdict.reason)));
    launches.line(16, fmt::format("hbm_bytes: {}", e.hbm_bytes));
    launches.line(16, fmt::format("vmem_bytes: {}", e.vmem_bytes));
    launches.line(16, fmt::format("flops: {}", e.flops));
    launches.line(16, fmt::format("mxu_flops: {}", e.mxu_flops));
    launches.line(16, fmt::format("transcendentals: {}", e.transcendentals));
    launches.line(16, fmt::format("divisions: {}", e.divisions));
    launches.line(16, fmt::format("cores: {}", e.cores));
    launches.line(16, fmt::format("core_steps: {}", e.core_steps));
    std::vector<std::string> terms;
    for (const autotune::TimeTerm& term : e.terms) {
      terms.push_back(fmt::format("{}: {}", term.name, us(term.us)));
    }
    launches.line(16, fmt::format("terms: {{{}}}", fmt::join(terms, ", ")));
    launches.line(16, fmt::format("units: {{mxu_us: {}, vpu_us: {}, eup_us: {}, hbm_us: {}}}",
                                  us(e.mxu_us), us(e.vpu_us), us(e.eup_us), us(e.hbm_us)));
  }
  out.line(10, fmt::format("- shapes: {}", double_quoted(call.text)));
  // A call's time only when every launch has one: a partial sum would understate it.
  out.line(12, complete ? fmt::format("time_us: {}", us(total)) : "time_us: null");
  // A kernel without a device loop launches nothing (its host code is not modelled).
  out.line(12, plan.launches.empty() ? "launches: []" : "launches:");
  out.append(launches.take());
}

}  // namespace

Expected<std::string> estimate_launches(const ReportInput& input, DiagnosticEngine& diags) {
  const ir::Module& module = *input.module;
  const autotune::TargetInfo& target = *input.target;
  // The calls come from --shapes and from the shape entries of --config files; with neither
  // there is nothing to estimate (the output would be `calls: []` for every config).
  const bool entries = std::any_of(input.configs->begin(), input.configs->end(),
                                   [](const auto& file) { return file && !file->configs.empty(); });
  if (input.shapes->empty() && !entries) {
    return Error{
        "--estimate has no call to estimate: give --shapes or --shapes-file, or a "
        "--config with shape entries"};
  }
  for (const ShapeSet& set : *input.shapes) {
    std::string why;
    bool accepted = false;
    for (const ir::Kernel& kernel : module.kernels) {
      accepted = accepted || call_matches(kernel, set, why);
    }
    if (!accepted) return Error{fmt::format("--shapes call `{}`: {}", set.text, why)};
  }
  YamlOut out;
  out.line(0, fmt::format("# helionc --estimate: the cost model's prediction per launch "
                          "(autotune/cost_model.h)"));
  out.line(0, fmt::format("target: {}", double_quoted(target.name)));
  out.line(0, fmt::format("model_version: {}", autotune::kCostModelVersion));
  out.line(0, "kernels:");
  for (size_t k = 0; k < module.kernels.size(); ++k) {
    const ir::Kernel& kernel = module.kernels[k];
    const passes::KernelPlan& plan = (*input.plans)[k];
    const auto& file = (*input.configs)[k];
    out.line(2, fmt::format("- kernel: {}", double_quoted(kernel.name)));
    out.line(4, "configs:");
    for (const EstimatedConfig& config :
         kernel_configs(kernel, file ? &*file : nullptr, *input.shapes)) {
      out.line(6, fmt::format("- label: {}", double_quoted(config.label)));
      out.line(8, fmt::format("config: {}", autotune::config_flow_yaml(config.config)));
      // The configs were checked against the kernel (autotune::check_module_configs).
      auto resolved = autotune::resolve_config(config.config, kernel, plan, diags);
      if (!resolved) return std::string();
      if (config.calls.empty()) {
        out.line(8, "calls: []");
        continue;
      }
      out.line(8, "calls:");
      for (const ShapeSet& call : config.calls) {
        estimate_call(kernel, plan, config.config, *resolved, call, target, out);
      }
    }
  }
  return out.take();
}

}  // namespace helionc::driver
