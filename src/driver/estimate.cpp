#include "driver/estimate.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "autotune/cost_model.h"
#include "autotune/legality.h"
#include "autotune/resolve_config.h"
#include "autotune/search.h"
#include "autotune/yaml_writer.h"
#include "driver/call_shapes.h"
#include "passes/launch_resources.h"

namespace helionc::driver {

namespace {

// Fixed decimals: the output is the same on every machine and stays a YAML float.
std::string us(double value) { return fmt::format("{:.3f}", value); }

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
                       ? fmt::format("default ({})", file_name_and_line(file->default_config.range))
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
    config.label = fmt::format("{} ({})", i + 1, file_name_and_line(entry.range));
    config.config = entry.config;
    config.calls.push_back(entry_call(kernel, entry, dtypes_assumed));
    configs.push_back(std::move(config));
  }
  return configs;
}

namespace yw = autotune::yaml_write;

// `key: value` with a value already formatted as a YAML number.
void number(YAML::Emitter& out, std::string_view key, const std::string& text) {
  yw::key(out, key);
  out << text;
}

template <typename Int>
void integer(YAML::Emitter& out, std::string_view key, Int value) {
  yw::key(out, key);
  out << value;
}

// The launches of one call under one config, and the call's total time.
void estimate_call(const ir::Kernel& kernel, const passes::KernelPlan& plan,
                   const autotune::KernelConfig& config, const autotune::ResolvedConfig& resolved,
                   const ShapeSet& call, const autotune::TargetInfo& target, YAML::Emitter& out) {
  const passes::HostValues values = call_values(kernel, call);
  // The call's total comes before its launches in the output: every launch is estimated first.
  double total = 0;
  bool complete = true;
  struct LaunchEstimate {
    const passes::Launch* launch = nullptr;
    bool runs = true;
    std::optional<std::string> error;  // the launch could not be accounted
    autotune::Estimate estimate;
    autotune::LaunchVerdict verdict;
  };
  std::vector<LaunchEstimate> launches;
  for (const passes::Launch& launch : plan.launches) {
    LaunchEstimate& l = launches.emplace_back();
    l.launch = &launch;
    if (!autotune::launch_runs(launch, values)) {
      l.runs = false;
      continue;
    }
    const passes::LaunchChoices choices =
        autotune::launch_choices(config, resolved, plan, launch, target);
    Expected<passes::LaunchResources> resources =
        passes::account_launch(kernel, launch, values, choices);
    if (!resources) {
      complete = false;
      l.error = resources.error();
      continue;
    }
    l.estimate = autotune::estimate_launch(launch, choices, *resources, target);
    l.verdict = autotune::judge_launch(*resources, target, config.vmem_limit_bytes);
    total += l.estimate.time_us;
  }
  out << YAML::BeginMap;
  yw::key(out, "shapes");
  yw::string(out, call.text);
  // A call's time only when every launch has one: a partial sum would understate it.
  yw::key(out, "time_us");
  if (complete) {
    out << us(total);
  } else {
    out << YAML::Null;
  }
  yw::key(out, "launches");
  // A kernel without a device loop launches nothing (its host code is not modelled).
  if (launches.empty()) out << YAML::Flow;
  out << YAML::BeginSeq;
  for (const LaunchEstimate& l : launches) {
    out << YAML::BeginMap;
    integer(out, "launch", l.launch->index);
    if (!l.runs) {
      yw::key(out, "runs");
      out << false;
      yw::comment(out, "an optional tensor it reads is None in this call");
    } else if (l.error) {
      yw::key(out, "error");
      yw::string(out, *l.error);
    } else {
      const autotune::Estimate& e = l.estimate;
      number(out, "time_us", us(e.time_us));
      number(out, "tflops", us(e.tflops));
      number(out, "fraction_of_peak", fmt::format("{:.4f}", e.fraction_of_peak));
      yw::key(out, "bound");
      yw::string(out, autotune::bound_name(e.bound));
      yw::key(out, "fits");
      out << l.verdict.fits;
      if (!l.verdict.fits) {
        yw::key(out, "why");
        yw::string(out, l.verdict.reason);
      }
      integer(out, "hbm_bytes", e.hbm_bytes);
      integer(out, "vmem_bytes", e.vmem_bytes);
      integer(out, "flops", e.flops);
      integer(out, "mxu_flops", e.mxu_flops);
      integer(out, "transcendentals", e.transcendentals);
      integer(out, "divisions", e.divisions);
      integer(out, "cores", e.cores);
      integer(out, "core_steps", e.core_steps);
      yw::key(out, "terms");
      out << YAML::Flow << YAML::BeginMap;
      for (const autotune::TimeTerm& term : e.terms) number(out, term.name, us(term.us));
      out << YAML::EndMap;
      yw::key(out, "units");
      out << YAML::Flow << YAML::BeginMap;
      number(out, "mxu_us", us(e.mxu_us));
      number(out, "vpu_us", us(e.vpu_us));
      number(out, "eup_us", us(e.eup_us));
      number(out, "hbm_us", us(e.hbm_us));
      out << YAML::EndMap;
    }
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::EndMap;
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
  YAML::Emitter out;
  yw::setup(out);
  yw::comment(out,
              "helionc --estimate: the cost model's prediction per launch "
              "(autotune/cost_model.h)");
  out << YAML::BeginMap;
  yw::key(out, "target");
  yw::string(out, target.name);
  integer(out, "model_version", autotune::kCostModelVersion);
  yw::key(out, "kernels");
  out << YAML::BeginSeq;
  for (size_t k = 0; k < module.kernels.size(); ++k) {
    const ir::Kernel& kernel = module.kernels[k];
    const passes::KernelPlan& plan = (*input.plans)[k];
    const auto& file = (*input.configs)[k];
    const autotune::ConfigLabels labels = autotune::config_labels(kernel);
    out << YAML::BeginMap;
    yw::key(out, "kernel");
    yw::string(out, kernel.name);
    yw::key(out, "configs");
    out << YAML::BeginSeq;
    for (const EstimatedConfig& config :
         kernel_configs(kernel, file ? &*file : nullptr, *input.shapes)) {
      out << YAML::BeginMap;
      yw::key(out, "label");
      yw::string(out, config.label);
      yw::key(out, "config");
      yw::config(out, config.config);
      const std::string tiles = autotune::block_size_comment(config.config, labels);
      if (!tiles.empty()) yw::comment(out, tiles);
      // The configs were checked against the kernel (autotune::check_module_configs).
      auto resolved = autotune::resolve_config(config.config, kernel, plan, diags);
      if (!resolved) return std::string();
      yw::key(out, "calls");
      if (config.calls.empty()) out << YAML::Flow;
      out << YAML::BeginSeq;
      for (const ShapeSet& call : config.calls) {
        estimate_call(kernel, plan, config.config, *resolved, call, target, out);
      }
      out << YAML::EndSeq;
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::EndMap;
  return yw::document(out);
}

}  // namespace helionc::driver
