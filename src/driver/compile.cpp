#include "driver/compile.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>

#include "autotune/config.h"
#include "autotune/cost_model.h"
#include "autotune/legality.h"
#include "autotune/resolve_config.h"
#include "autotune/targets.h"
#include "backend/pallas/emit_module.h"
#include "backend/reference/reference_module.h"
#include "driver/autotune_command.h"
#include "driver/config_space.h"
#include "driver/estimate.h"
#include "driver/report.h"
#include "driver/version.h"
#include "frontend/frontend.h"
#include "frontend/source_checks.h"
#include "ir/printer.h"
#include "parse/syntax_tree.h"
#include "passes/pipeline.h"
#include "support/file_io.h"
#include "support/limits.h"
#include "support/python_limits.h"
#include "support/quote.h"
#include "support/sha256.h"
#include "support/templates.h"

namespace helionc::driver {

namespace {

bool use_color(ColorMode mode) {
  switch (mode) {
    case ColorMode::kAlways:
      return true;
    case ColorMode::kNever:
      return false;
    case ColorMode::kAuto:
      return std::getenv("NO_COLOR") == nullptr && isatty(STDERR_FILENO);
  }
  return false;
}

DiagnosticOptions diagnostic_options(const DriverOptions& options) {
  DiagnosticOptions result;
  result.color = use_color(options.color);
  result.format = options.diagnostics_format;
  result.warnings_as_errors = options.warnings_as_errors;
  result.verbose = options.verbose;
  result.max_errors = options.max_errors;
  return result;
}

// A module CPython would refuse (support/python_limits.h) is never written: the
// error points at the kernel line the module's too-deep line was printed from. The printers end
// a statement with a `# path:line` comment, after its last line when it is wrapped, and the
// statement that crosses a limit is still open where it does: the first such comment from
// there on names it (else the nearest above, else the file).
bool check_module_limits(std::string_view module, const SourceFile& file, DiagnosticEngine& diags) {
  const std::optional<PythonLimitProblem> problem = find_python_limit_problem(module);
  if (!problem) return true;
  std::vector<std::string_view> lines;
  for (size_t at = 0; at < module.size();) {
    const size_t end = std::min(module.find('\n', at), module.size());
    lines.push_back(module.substr(at, end - at));
    at = end + 1;
  }
  const std::string marker = fmt::format("# {}:", one_line_text(file.path()));
  const auto source_line = [&](size_t index) -> std::optional<uint32_t> {
    const size_t found = lines[index].rfind(marker);
    if (found == std::string_view::npos) return std::nullopt;
    const std::string_view digits = lines[index].substr(found + marker.size());
    uint32_t number = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (error != std::errc() || end == digits.data()) return std::nullopt;
    return number;
  };
  std::optional<uint32_t> line;
  const size_t first = std::min(problem->line, lines.size()) - 1;
  for (size_t i = first; i < lines.size() && !line; ++i) line = source_line(i);
  for (size_t i = first + 1; i > 0 && !line; --i) line = source_line(i - 1);
  SourceRange where = file.range(0, 0);
  if (line) {
    const size_t column = file.line_text(*line).find_first_not_of(" \t");
    const uint32_t begin =
        file.line_offset(*line) + (column == std::string_view::npos ? 0 : column);
    where = file.range(begin, begin);
  }
  diags.error(DiagnosticKind::kLimitExceeded, where,
              fmt::format("the module printed for this code is nested too deeply for CPython: "
                          "{} at line {} of the module; split it into several statements",
                          problem->message, problem->line));
  return false;
}

// A `vmem_limit_bytes` above the target's physical VMEM is an error at the value.
void check_vmem_limits(const autotune::ConfigFile& config, const std::string& target_name,
                       DiagnosticEngine& diags) {
  const autotune::TargetInfo* target = autotune::find_target(target_name);
  if (target == nullptr) return;  // the command line only accepts known targets
  autotune::check_vmem_limit(config.default_config, *target, diags);
  for (const autotune::ShapeEntry& entry : config.configs) {
    autotune::check_vmem_limit(entry.config, *target, diags);
  }
}

// The same for the configs written in the kernels' decorators.
void check_builtin_vmem_limits(const ir::Module& module, const std::string& target_name,
                               DiagnosticEngine& diags) {
  const autotune::TargetInfo* target = autotune::find_target(target_name);
  if (target == nullptr) return;
  for (const ir::Kernel& kernel : module.kernels) {
    for (const ir::BuiltinConfig& builtin : kernel.builtin_configs) {
      autotune::KernelConfig config;
      config.vmem_limit_bytes = builtin.vmem_limit_bytes;
      autotune::check_vmem_limit(config, *target, diags, builtin.range);
    }
  }
}

// The kernels' `hl.register_tunable` keys are config keys (each kernel's are checked against
// its own by autotune::resolve_config).
autotune::ConfigParseOptions config_parse_options(const ir::Module& module) {
  autotune::ConfigParseOptions options;
  for (const ir::Kernel& kernel : module.kernels) {
    for (const ir::UserTunable& tunable : kernel.user_tunables) {
      options.tunable_names.push_back(tunable.name);
    }
  }
  return options;
}

// Matches each --config file to the kernel it names; unknown kernels are errors. Several files
// for one kernel merge in command-line order (autotune::merge_config_file).
std::vector<std::optional<autotune::ConfigFile>> load_configs(const DriverOptions& options,
                                                              const ir::Module& module,
                                                              const std::string& sha256,
                                                              DiagnosticEngine& diags) {
  std::vector<std::optional<autotune::ConfigFile>> configs(module.kernels.size());
  for (const std::string& path : options.configs) {
    auto config = autotune::load_config_file(path, diags, config_parse_options(module));
    if (!config) continue;
    const auto kernel =
        std::find_if(module.kernels.begin(), module.kernels.end(),
                     [&](const ir::Kernel& candidate) { return candidate.name == config->kernel; });
    if (kernel == module.kernels.end()) {
      std::vector<std::string> names;
      for (const ir::Kernel& compiled : module.kernels) names.push_back("`" + compiled.name + "`");
      diags.error(DiagnosticKind::kConfigSchema, config->kernel_range,
                  fmt::format("the config is for kernel `{}`, which is not being compiled "
                              "(compiling {})",
                              config->kernel, fmt::join(names, ", ")));
      continue;
    }
    const auto i = static_cast<size_t>(kernel - module.kernels.begin());
    autotune::check_config_provenance(*config, sha256, options.target, diags, kHelioncVersion,
                                      autotune::kCostModelVersion);
    check_vmem_limits(*config, options.target, diags);
    // A later file for the same kernel overrides the earlier ones per entry.
    if (configs[i]) {
      autotune::merge_config_file(*configs[i], std::move(*config));
    } else {
      configs[i] = std::move(config);
    }
  }
  return configs;
}

// The output must not overwrite what the compile reads (GCC: "input file is the same as output
// file"): the kernel source, or a config file.
bool check_output_is_not_an_input(const DriverOptions& options, DiagnosticEngine& diags) {
  const std::string output = output_path(options);
  std::vector<std::string> inputs{options.input};
  inputs.insert(inputs.end(), options.configs.begin(), options.configs.end());
  for (const std::string& input : inputs) {
    if (!same_file(input, output)) continue;
    diags.error(
        DiagnosticKind::kOutputFile, {},
        fmt::format("the output `{}` is the input file `{}`; nothing was written", output, input));
    return false;
  }
  return true;
}

// The depfile (when asked for) names every file this run read: the kernel, its configs, the
// shapes file and the templates of --template-dir. It is written before the output, so that a
// failure to write it leaves no output newer than its inputs for Make to trust.
Status write_depfile(const DriverOptions& options, const std::vector<std::string>& templates_read) {
  if (!options.depfile) return {};
  std::vector<std::string> inputs = options.configs;
  if (options.shapes_file) inputs.push_back(*options.shapes_file);
  inputs.insert(inputs.end(), templates_read.begin(), templates_read.end());
  std::optional<std::string> source;
  if (options.input != "-") source = options.input;
  // Like the output, the depfile must not replace a file the compile read (`-MF k.py`), nor the
  // module itself.
  std::vector<std::string> protected_files = inputs;
  protected_files.push_back(options.input);
  protected_files.push_back(output_path(options));
  for (const std::string& file : protected_files) {
    if (same_file(file, options.depfile->path)) {
      return Error{
          fmt::format("the depfile `{}` is `{}`, which this compile reads or writes; "
                      "nothing was written",
                      options.depfile->path, file)};
    }
  }
  return write_output_file(options.depfile->path, render_depfile(*options.depfile, source, inputs));
}

// Renders the diagnostics to stderr and returns the exit status they imply.
int finish(const DiagnosticEngine& diags) {
  const std::string text = diags.render();
  std::fputs(text.c_str(), stderr);
  return diags.has_errors() ? kExitCompileError : kExitSuccess;
}

// The module of the one kernel with `config` as its default (null: the kernel's own default),
// for --search measure and compile.
Expected<std::string> emit_with_default(const DriverOptions& options,
                                        const passes::PipelineResult& scheduled,
                                        const std::string& sha256,
                                        const autotune::KernelConfig* config) {
  backend::pallas::EmitOptions emit_options;
  emit_options.helionc_version = kHelioncVersion;
  emit_options.source_path = options.input;
  emit_options.source_sha256 = sha256;
  emit_options.target = options.target;
  emit_options.configs.assign(scheduled.module.kernels.size(), std::nullopt);
  DiagnosticEngine diags(DiagnosticOptions{});
  if (config) {
    // Read back from its YAML, as a --config of it would be: a `default:` counts only where
    // the file has one (KernelConfig::range), so a ConfigFile built in code would be ignored.
    autotune::ConfigFile file;
    file.kernel = scheduled.module.kernels.front().name;
    file.default_config = *config;
    auto text =
        std::make_shared<const SourceFile>("<candidate>", autotune::write_config_yaml(file));
    auto parsed = autotune::parse_config_text(text, diags, config_parse_options(scheduled.module));
    HELIONC_CHECK(parsed.has_value(),
                  "a candidate's config cannot be read back:\n" + diags.render());
    emit_options.configs.front() = std::move(*parsed);
  }
  auto emitted =
      backend::pallas::emit_module(scheduled.module, scheduled.plans, emit_options, diags);
  if (!emitted || diags.has_errors()) {
    return Error{"a candidate's module could not be printed:\n" + diags.render()};
  }
  return std::move(*emitted);
}

// --autotune: tunes the one kernel being compiled, writes the tuning YAML (--config-out, else
// stdout) and, for the module (-o), puts the tuned config read back from that YAML into
// `configs`. Returns the exit status when the run ends here.
std::optional<int> run_autotune(const DriverOptions& options,
                                const passes::PipelineResult& scheduled, const std::string& sha256,
                                std::vector<std::optional<autotune::ConfigFile>>& configs,
                                DiagnosticEngine& diags) {
  const auto& kernels = scheduled.module.kernels;
  if (kernels.size() != 1) {
    std::vector<std::string> names;
    for (const ir::Kernel& kernel : kernels) names.push_back("`" + kernel.name + "`");
    std::fputs(diags.render().c_str(), stderr);
    std::fprintf(stderr, "helionc: error: %s\n",
                 kernels.empty()
                     ? "--autotune: the file has no kernel to tune"
                     : fmt::format("--autotune tunes one kernel at a time; the file has {} ({}): "
                                   "pick one with --kernel",
                                   kernels.size(), fmt::join(names, ", "))
                           .c_str());
    return kExitUsageError;
  }
  if (options.config_out && same_file(options.input, *options.config_out)) {
    diags.error(DiagnosticKind::kOutputFile, {},
                fmt::format("the config output `{}` is the input file; nothing was written",
                            *options.config_out));
    return finish(diags);
  }
  AutotuneInput input;
  input.kernel = &kernels.front();
  input.plan = &scheduled.plans.front();
  input.target = autotune::find_target(options.target);
  input.shapes = &options.shapes;
  input.source_sha256 = sha256;
  input.helionc_version = kHelioncVersion;
  input.search.seed = options.seed;
  input.search.budget_seconds = options.budget_seconds;
  input.quiet = options.quiet;
  input.jobs = options.jobs;
  if (options.search != "model") {
    RunnerRequest& runner = input.runner;
    runner.search = options.search;
    runner.kernel = kernels.front().name;
    runner.top = options.top;
    runner.baseline = options.search == "measure";  // the reference output
    if (options.search == "measure") {
      runner.plan_fields.push_back(fmt::format("\"runs\": {}", options.runs));
    } else {
      runner.plan_fields.push_back(fmt::format("\"jobs\": {}", options.jobs));
    }
    runner.timeout_s = options.candidate_timeout_s;
    runner.resume = options.resume;
    runner.journal = journal_path(options);
    runner.quiet = options.quiet;
    runner.emit = [&](const autotune::KernelConfig* config) -> Expected<std::string> {
      return emit_with_default(options, scheduled, sha256, config);
    };
  }
  HELIONC_CHECK(input.target != nullptr, "an unknown --target passed the command line");
  Expected<AutotuneResult> tuned = autotune_kernel(input);
  if (!tuned) {
    std::fputs(diags.render().c_str(), stderr);
    std::fprintf(stderr, "helionc: error: %s\n", tuned.error().c_str());
    return kExitUsageError;
  }
  if (!tuned->search_failures.empty()) {
    std::fputs(diags.render().c_str(), stderr);
    for (const std::string& failure : tuned->search_failures) {
      std::fprintf(stderr, "helionc: error: %s\n", failure.c_str());
    }
    return kExitSearchFailed;  // nothing written
  }
  if (!tuned->failures.empty()) {
    std::fputs(diags.render().c_str(), stderr);
    for (const std::string& failure : tuned->failures) {
      std::fprintf(stderr, "helionc: error: %s\n", failure.c_str());
    }
    return kExitNoLegalConfig;  // nothing written
  }
  const std::string yaml_path = options.config_out.value_or("-");
  if (auto written = write_output_file(yaml_path, tuned->yaml); !written) {
    diags.error(DiagnosticKind::kOutputFile, {}, written.error());
    return finish(diags);
  }
  if (!options.output) return finish(diags);
  // The module uses the config as a later --config of that YAML would: read back from its text.
  auto file =
      std::make_shared<const SourceFile>(options.config_out.value_or("<autotune>"), tuned->yaml);
  auto parsed = autotune::parse_config_text(file, diags, config_parse_options(scheduled.module));
  HELIONC_CHECK(parsed.has_value(), "--autotune wrote a config it cannot read:\n" + diags.render());
  configs.assign(kernels.size(), std::nullopt);
  configs.front() = std::move(*parsed);
  if (!autotune::check_module_configs(scheduled.module, scheduled.plans, configs, diags)) {
    return finish(diags);
  }
  return std::nullopt;
}

}  // namespace

int run_compile(const DriverOptions& options) {
  DiagnosticEngine diags(diagnostic_options(options));
  for (const auto& [flag, enabled] : options.warning_flags)
    diags.set_warning_enabled(flag, enabled);

  if (auto problem = parse::check_grammar_abi()) {
    diags.error(DiagnosticKind::kGrammarVersion, {}, *problem);
    return finish(diags);
  }
  if (!check_output_is_not_an_input(options, diags)) return finish(diags);
  auto text = read_file(options.input, limits::kMaxInputBytes);
  if (!text) {
    diags.error(DiagnosticKind::kInputFile, {}, text.error());
    return finish(diags);
  }
  if (text->size() > limits::kMaxInputBytes) {
    diags.error(DiagnosticKind::kLimitExceeded, {},
                fmt::format("`{}` is longer than {} bytes ({} MiB), the most helionc reads",
                            options.input == "-" ? "<stdin>" : options.input,
                            limits::kMaxInputBytes, limits::kMaxInputBytes >> 20));
    return finish(diags);
  }
  // The provenance hash is of the file's bytes, as `sha256sum` computes it.
  const std::string sha256 = sha256_hex(*text);
  const SourceFile file(options.input == "-" ? "<stdin>" : options.input,
                        with_lone_crs_as_newlines(std::move(*text)));

  if (!frontend::check_source_bytes(file, diags)) return finish(diags);
  auto tree = parse::SyntaxTree::parse(file);
  if (!tree || !parse::report_syntax_errors(*tree, diags)) return finish(diags);

  frontend::FrontendOptions frontend_options;
  frontend_options.kernel_name = options.kernel;
  ir::Module module = frontend::lower_file(*tree, frontend_options, diags);
  auto configs = load_configs(options, module, sha256, diags);
  check_builtin_vmem_limits(module, options.target, diags);
  if (diags.has_errors()) return finish(diags);

  passes::PipelineOptions pipeline_options;
  pipeline_options.dump_after = options.dump_after;
  pipeline_options.dump = [](std::string_view pass, std::string_view dump) {
    std::fprintf(stderr, "// IR after %.*s\n%.*s", static_cast<int>(pass.size()), pass.data(),
                 static_cast<int>(dump.size()), dump.data());
  };
  auto scheduled = passes::run_pipeline(std::move(module), pipeline_options, diags);
  if (!scheduled || diags.has_errors()) return finish(diags);
  // Whatever is emitted, a config that does not fit its kernel is an error.
  if (!autotune::check_module_configs(scheduled->module, scheduled->plans, configs, diags)) {
    return finish(diags);
  }
  if (options.autotune) {
    if (auto status = run_autotune(options, *scheduled, sha256, configs, diags)) return *status;
  }

  std::string output;
  std::vector<std::string> templates_read;
  if (options.emit == EmitKind::kIr) {
    output = passes::dump_state(scheduled->module, scheduled->plans);
  } else if (options.emit == EmitKind::kReport || options.emit == EmitKind::kEstimate ||
             options.emit == EmitKind::kConfigSpace) {
    ReportInput input;
    input.module = &scheduled->module;
    input.plans = &scheduled->plans;
    input.configs = &configs;
    input.target = autotune::find_target(options.target);
    input.shapes = &options.shapes;
    HELIONC_CHECK(input.target != nullptr, "an unknown --target passed the command line");
    Expected<std::string> report =
        options.emit == EmitKind::kReport     ? report_resources(input, diags)
        : options.emit == EmitKind::kEstimate ? estimate_launches(input, diags)
                                              : emit_config_space(input);
    if (!report) {
      std::fputs(diags.render().c_str(), stderr);
      std::fprintf(stderr, "helionc: error: %s\n", report.error().c_str());
      return kExitUsageError;
    }
    if (diags.has_errors()) return finish(diags);
    output = std::move(*report);
  } else {
    auto templates = options.template_dir ? TemplateSet::from_directory(*options.template_dir)
                                          : Expected<TemplateSet>(TemplateSet::embedded());
    if (!templates) {
      diags.error(DiagnosticKind::kInputFile, {}, templates.error());
      return finish(diags);
    }
    backend::reference::ReferenceOptions reference_options;
    reference_options.helionc_version = kHelioncVersion;
    reference_options.source_path = file.path();
    reference_options.source_sha256 = sha256;
    reference_options.templates = &*templates;
    if (options.emit == EmitKind::kReference) {
      auto emitted =
          backend::reference::emit_reference_module(scheduled->module, reference_options, diags);
      if (!emitted || diags.has_errors()) return finish(diags);
      output = std::move(*emitted);
      if (!check_module_limits(output, file, diags)) return finish(diags);
    } else {
      // The module carries every kernel's reference, printed by the reference backend alone.
      auto references =
          backend::reference::reference_section(scheduled->module, reference_options, diags);
      if (!references || diags.has_errors()) return finish(diags);
      backend::pallas::EmitOptions emit_options;
      emit_options.references = std::move(references->text);
      emit_options.references_math = references->math;
      emit_options.references_numpy = references->numpy;
      emit_options.helionc_version = kHelioncVersion;
      emit_options.source_path = file.path();
      emit_options.source_sha256 = sha256;
      emit_options.target = options.target;
      emit_options.autodiff = options.autodiff;
      emit_options.configs = std::move(configs);
      emit_options.templates = &*templates;
      auto emitted =
          backend::pallas::emit_module(scheduled->module, scheduled->plans, emit_options, diags);
      if (!emitted || diags.has_errors()) return finish(diags);
      output = std::move(*emitted);
      if (!check_module_limits(output, file, diags)) return finish(diags);
    }
    templates_read = templates->paths_read();
  }

  if (auto written = write_depfile(options, templates_read); !written) {
    diags.error(DiagnosticKind::kOutputFile, {}, written.error());
    return finish(diags);
  }
  if (auto written = write_output_file(output_path(options), output); !written) {
    diags.error(DiagnosticKind::kOutputFile, {}, written.error());
  }
  return finish(diags);
}

}  // namespace helionc::driver
