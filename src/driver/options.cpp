#include "driver/options.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "support/did_you_mean.h"
#include "support/file_io.h"

#include "autotune/targets.h"
#include "driver/help_format.h"
#include "driver/version_text.h"
#include "passes/pipeline.h"

namespace helionc::driver {

const std::vector<std::string>& target_names() {
  static const std::vector<std::string> kTargets = [] {
    std::vector<std::string> names;
    for (const autotune::TargetInfo& target : autotune::builtin_targets()) {
      names.push_back(target.name);
    }
    return names;
  }();
  return kTargets;
}

namespace {

int usage_error(const std::string& message) {
  std::fprintf(stderr, "helionc: error: %s\nTry 'helionc --help' for more information.\n",
               message.c_str());
  return kExitUsageError;
}

// GCC-style diagnostic flags (-Werror, -Wfoo, -Wno-foo, -fmax-errors=N) are taken out before
// CLI11 sees argv, since CLI11 has no notion of an option name that embeds its value.
Expected<std::vector<std::string>> take_warning_flags(int argc, char** argv,
                                                      DriverOptions& options) {
  std::vector<std::string> rest;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("-fmax-errors=", 0) == 0) {
      const std::string value = arg.substr(arg.find('=') + 1);
      const auto [end, error] =
          std::from_chars(value.data(), value.data() + value.size(), options.max_errors);
      if (value.empty() || error != std::errc() || end != value.data() + value.size()) {
        return Error{
            fmt::format("-fmax-errors: `{}` is not a count of errors (0: no limit)", value)};
      }
    } else if (arg == "-Werror") {
      options.warnings_as_errors = true;
    } else if (arg.rfind("-Wno-", 0) == 0) {
      options.warning_flags.emplace_back(arg.substr(5), false);
    } else if (arg.rfind("-W", 0) == 0 && arg.size() > 2) {
      options.warning_flags.emplace_back(arg.substr(2), true);
    } else {
      rest.push_back(arg);
    }
  }
  return rest;
}

// GCC's colour flags, as aliases of --color (a build passing CFLAGS-style flags to every tool
// gets the same colours): -fdiagnostics-color[=WHEN] and -fno-diagnostics-color. The last of
// them and --color wins, as in GCC.
std::vector<std::string> rewrite_color_flags(std::vector<std::string> args) {
  for (std::string& arg : args) {
    if (arg == "-fdiagnostics-color") {
      arg = "--color=always";
    } else if (arg.rfind("-fdiagnostics-color=", 0) == 0) {
      arg = "--color=" + arg.substr(arg.find('=') + 1);
    } else if (arg == "-fno-diagnostics-color") {
      arg = "--color=never";
    }
  }
  return args;
}

// --help and --version print to standard output; a failed write (`helionc --help > /dev/full`)
// is an error like any other failed output, not a silent success.
int print_to_stdout(const std::string& text) {
  std::fputs(text.c_str(), stdout);
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "helionc: error: cannot write to standard output: %s\n",
                 std::strerror(errno));
    return kExitCompileError;
  }
  return kExitSuccess;
}

// The names --dump-after accepts: every pass of the pipeline, and "all".
std::vector<std::string> dump_after_names() {
  std::vector<std::string> names;
  for (std::string_view pass : passes::pipeline_pass_names()) names.emplace_back(pass);
  names.emplace_back("all");
  return names;
}

// The footer of --help: the warnings by the names they print, the exit statuses, and examples
// last (the man page's EXAMPLES has more). Every line fits kHelpWidth.
std::string help_footer() {
  constexpr size_t kNameColumn = 26;
  std::string text = wrap_text(
      fmt::format("Warnings: -W<name> enables, -Wno-<name> disables, -Werror makes them errors, "
                  "-fmax-errors=N stops reporting after N errors (default {}; 0: no limit). A "
                  "warning ends with [-W<name>]; the names are:",
                  DiagnosticOptions::kDefaultMaxErrors),
      kHelpWidth);
  text += "\n";
  for (std::string_view name : warning_names()) {
    const std::string row = fmt::format("  {:<{}}{}", name, kNameColumn - 2,
                                        warning_description(*warning_kind_from_name(name)));
    text += wrap_text(row, kHelpWidth, kNameColumn) + "\n";
  }
  text += "\n" +
          wrap_text(
              "Exit status: 0 success, 1 compile errors, 2 usage errors, 3 internal "
              "errors, 4 no legal config for some --autotune call, 5 --search measure or "
              "compile could not check some call.",
              kHelpWidth) +
          "\n";
  // What each does, then the command as a user types it (each fits the page: a terminal would
  // cut it, not wrap it).
  static constexpr std::pair<std::string_view, std::string_view> kExamples[] = {
      {"Compile every kernel of softmax.py into softmax_pallas.py:", "helionc softmax.py"},
      {"The same with a tuned config, into another file:",
       "helionc softmax.py --config softmax.yaml -o out/softmax_pallas.py"},
      {"Resources per launch for one call:",
       "helionc mm.py --emit report --shapes 'x=1024x1024:bf16,y=1024x1024:bf16'"},
      {"The cost model's prediction for the calls of a file:",
       "helionc mm.py --estimate --shapes-file mm.shapes"},
      {"Tune for those calls, writing the config and the module:",
       "helionc mm.py --autotune --shapes-file mm.shapes --config-out mm.yaml -o mm_pallas.py"},
      {"From a Makefile, with a dependency file (mm_pallas.d):",
       "helionc mm.py --config mm.yaml -o mm_pallas.py -MD -MP"},
  };
  text += "\nExamples:\n";
  for (const auto& [what, command] : kExamples) {
    text += fmt::format("  {}\n    {}\n", what, command);
  }
  return text;
}

// `-Wfoo` and `-Wno-foo` name a warning of diagnostic_kinds.def, as the warning prints it.
std::optional<std::string> check_warning_flags(const DriverOptions& options) {
  const std::vector<std::string_view> names = warning_names();
  for (const auto& [flag, enabled] : options.warning_flags) {
    if (warning_kind_from_name(flag)) continue;
    return fmt::format("unknown warning option '-W{}{}'{} (helionc --help lists the warnings)",
                       enabled ? "" : "no-", flag, did_you_mean(flag, names));
  }
  return std::nullopt;
}

// A number of seconds as a person writes it (`0.05`, `30`, `1e3`); CLI11's own conversion
// takes `0,05` for something else and its range check prints the largest double in full.
// `--name: `0,05` is not a number of seconds` otherwise.
std::optional<std::string> read_seconds(const std::string& name, const std::string& text,
                                        bool zero_allowed, double& seconds) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return fmt::format("{}: `{}` is not a number of seconds (write it as `30` or `0.5`)", name,
                       text);
  }
  if (value < 0 || (value == 0 && !zero_allowed)) {
    return fmt::format("{}: `{}` seconds; give a number {} 0", name, text,
                       zero_allowed ? "of at least" : "greater than");
  }
  seconds = value;
  return std::nullopt;
}

// Two outputs of one run naming the same file: the later write would replace the earlier one
// (`--autotune -o X --config-out X` wrote the module over the tuned YAML). Paths are compared
// after resolving `.`, `..` and symlinks, so `X` and `./d/../X` are one file; standard output,
// `/dev/null` and other files that are not regular files may be named twice.
std::optional<std::string> check_distinct_outputs(
    const std::vector<std::pair<std::string, std::string>>& outputs) {
  std::vector<std::pair<std::filesystem::path, const std::string*>> seen;
  for (const auto& [flag, path] : outputs) {
    if (path == "-") continue;
    std::error_code error;
    const std::filesystem::file_status status = std::filesystem::status(path, error);
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) continue;
    // A link to a file not written yet (which weakly_canonical leaves as it is) is followed.
    std::filesystem::path file = std::filesystem::absolute(path, error);
    for (int hops = 0; hops < 40 && std::filesystem::is_symlink(file, error); ++hops) {
      file = file.parent_path() / std::filesystem::read_symlink(file, error);
    }
    std::filesystem::path canonical = std::filesystem::weakly_canonical(file, error);
    if (error) canonical = file.lexically_normal();
    for (const auto& [other, other_flag] : seen) {
      if (other == canonical) {
        return fmt::format("{} and {} both write `{}`; give them different files", *other_flag,
                           flag, path);
      }
    }
    seen.emplace_back(canonical, &flag);
  }
  return std::nullopt;
}

// The options `arg` might have meant (`--budgt=5` -> `--budget`), for an unknown option.
std::string did_you_mean_option(const CLI::App& app, std::string_view arg) {
  std::vector<std::string> spellings = {"-Werror",
                                        "-fmax-errors",
                                        "-MD",
                                        "-MP",
                                        "-MF",
                                        "-MT",
                                        "-fdiagnostics-color",
                                        "-fno-diagnostics-color"};
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& name : option->get_lnames()) spellings.push_back("--" + name);
  }
  const std::vector<std::string_view> known(spellings.begin(), spellings.end());
  return did_you_mean(arg.substr(0, arg.find('=')), known);
}

}  // namespace

std::string output_path(const DriverOptions& options) {
  if (options.output) return *options.output;
  const bool module = options.emit == EmitKind::kPallas || options.emit == EmitKind::kReference;
  if (!module || options.input == "-") return "-";
  const std::string suffix = options.emit == EmitKind::kReference ? "_reference.py" : "_pallas.py";
  return std::filesystem::path(options.input).stem().string() + suffix;
}

std::string journal_path(const DriverOptions& options) {
  return options.journal.value_or(options.config_out.value_or("") + ".journal");
}

std::variant<DriverOptions, int> parse_command_line(int argc, char** argv) {
  DriverOptions options;
  DepfileFlags depfile_flags;
  Expected<std::vector<std::string>> diagnostic_flags = take_warning_flags(argc, argv, options);
  if (!diagnostic_flags) return usage_error(diagnostic_flags.error());
  Expected<std::vector<std::string>> taken =
      take_gcc_dependency_flags(std::move(*diagnostic_flags), depfile_flags);
  if (!taken) return usage_error(taken.error());
  std::vector<std::string> args = rewrite_color_flags(std::move(*taken));

  CLI::App app{"helionc: compiles Helion kernels into JAX Pallas modules for TPUs", "helionc"};
  app.formatter(help_formatter());
  // --help's groups, by task; man/helionc.1 has a subsection for each, listing the same
  // options (tests/buildsys/test_cli.py compares them). The group of the first option added
  // comes first: --help and --version lead.
  constexpr const char* kGeneral = "General";
  constexpr const char* kOutput = "Output";
  constexpr const char* kTuning = "Tuning";
  constexpr const char* kSearch = "Search";
  constexpr const char* kDiagnostics = "Diagnostics";
  constexpr const char* kBuild = "Build integration";
  app.set_help_flag("-h,--help", "print this help and exit")->group(kGeneral);
  app.set_version_flag("--version", version_text(), "print the version and exit")->group(kGeneral);
  app.add_option("FILE", options.input, "Helion kernel file to compile (\"-\" reads stdin)")
      ->required()
      ->type_name("");
  // Enumerated options are read as strings and mapped afterwards, so --help and the errors
  // show the words users type ("pallas", "ir") rather than CLI11's enum mapping.
  std::string emit = "pallas";
  std::string color = "auto";
  std::string diagnostics_format = "text";
  std::optional<std::string> shapes;
  std::optional<std::string> shapes_file;
  std::optional<std::string> depfile;
  std::optional<std::string> budget;
  std::optional<std::string> candidate_timeout;
  bool estimate = false;

  app.add_option("-o,--output", options.output,
                 "output file (\"-\": stdout; default: FILE's stem + \"_pallas.py\", or "
                 "\"_reference.py\" for --emit reference, in the current directory; stdout for "
                 "the other --emit values and for stdin input)")
      ->option_text("FILE")
      ->group(kOutput);
  app.add_option("--emit", emit,
                 "what to write: pallas (default), reference (each kernel as plain jnp on "
                 "whole arrays, reference_<kernel>), ir, report (resources per launch and "
                 "config: grid, VMEM, HBM bytes, flops), or config-space (per --shapes call, "
                 "the tunables' legal and pruned values)")
      ->check(CLI::IsMember({"pallas", "reference", "ir", "report", "config-space"}))
      ->option_text("WHAT")
      ->group(kOutput);
  app.add_flag("--estimate", estimate,
               "print the cost model's prediction per launch as YAML (time, TFLOP/s, fraction "
               "of peak, what bounds it, the terms of the time) for --shapes and --config")
      ->group(kOutput);
  app.add_option("--kernel", options.kernel, "compile only this kernel")
      ->option_text("NAME")
      ->group(kOutput);
  app.add_flag_callback(
         "--no-autodiff", [&options] { options.autodiff = false; },
         "functions without their jax.custom_vjp (which differentiates "
         "reference_<kernel>): the Pallas kernels alone")
      ->group(kOutput);
  app.add_option("--target", options.target,
                 fmt::format("TPU generation: {} (default: {})", fmt::join(target_names(), ", "),
                             autotune::default_target().name))
      ->check(CLI::IsMember(target_names()))
      ->option_text("GEN")
      ->group(kOutput);
  app.add_option("--template-dir", options.template_dir,
                 "read module templates from DIR instead of the built-in ones")
      ->option_text("DIR")
      ->group(kOutput);

  app.add_option("--config", options.configs, "tuning config YAML (repeatable; later ones win)")
      ->check(CLI::ExistingFile)
      ->option_text("FILE")
      ->group(kTuning);
  app.add_option("--shapes", shapes,
                 "the calls for --autotune, --estimate, --emit report and config-space: "
                 "'x=4096x4096:bf16,y=4096:bf16;x=...' (';' separates calls)")
      ->option_text("CALLS")
      ->group(kTuning);
  app.add_option("--shapes-file", shapes_file,
                 "read --shapes from FILE (one or more calls a line, '#' comments)")
      ->check(CLI::ExistingFile)
      ->option_text("FILE")
      ->group(kTuning);
  app.add_flag("--autotune", options.autotune,
               "search the config space for every --shapes call with the cost model and write "
               "the tuning YAML (to --config-out, else stdout; the module too with -o)")
      ->group(kTuning);
  app.add_option("--config-out", options.config_out, "--autotune: write the tuning YAML here")
      ->option_text("FILE")
      ->group(kTuning);
  app.add_option("--seed", options.seed,
                 "--autotune: the seed of the sampled search of large spaces (default 0)")
      ->option_text("N")
      ->group(kTuning);
  app.add_option("--budget", budget,
                 "--autotune: stop searching a call after SECONDS (default: no limit)")
      ->option_text("SECONDS")
      ->group(kTuning);
  app.add_option("-j,--jobs", options.jobs,
                 "--autotune: search this many calls at once, on as many threads, and with "
                 "--search compile compile this many candidates at once (default 1; the YAML is "
                 "the same)")
      ->check(CLI::Range(1, 256))
      ->option_text("N")
      ->group(kTuning);
  app.add_flag("-q,--quiet", options.quiet, "--autotune: no progress or summary on stderr")
      ->group(kTuning);

  app.add_option("--search", options.search,
                 "--autotune: rank by the cost model alone (model, default), time the model's "
                 "--top candidates per call on the local JAX device (measure), or compile them "
                 "for the target's TPU generation with libtpu and keep the best that compiles "
                 "(compile; needs jax[tpu], no TPU); the options below are for measure and compile")
      ->check(CLI::IsMember({"model", "measure", "compile"}))
      ->option_text("HOW")
      ->group(kSearch);
  app.add_option("--top", options.top, "candidates timed or compiled per call (default 8)")
      ->check(CLI::Range(1, 1000))
      ->option_text("K")
      ->group(kSearch);
  app.add_option("--runs", options.runs,
                 "measure: timed runs per candidate, after one warm-up; the median counts "
                 "(default 5)")
      ->check(CLI::Range(1, 1000))
      ->option_text("N")
      ->group(kSearch);
  app.add_option("--candidate-timeout", candidate_timeout,
                 "seconds one candidate may take (default 300)")
      ->option_text("SECONDS")
      ->group(kSearch);
  app.add_option("--journal", options.journal,
                 "the journal of candidate results (default: <config-out>.journal)")
      ->option_text("FILE")
      ->group(kSearch);
  app.add_flag("--resume", options.resume, "keep the journal's results and redo only what it lacks")
      ->group(kSearch);

  app.add_flag("-v,--verbose", options.verbose, "also print remarks (skipped functions, ...)")
      ->group(kDiagnostics);
  app.add_option("--color", color,
                 "colour diagnostics: auto (default), always, never (GCC's "
                 "-fdiagnostics-color[=WHEN] and -fno-diagnostics-color work too)")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast)
      ->option_text("WHEN")
      ->group(kDiagnostics);
  app.add_option("--diagnostics-format", diagnostics_format,
                 "diagnostics as text (default) or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->option_text("FORMAT")
      ->group(kDiagnostics);
  app.add_option("--dump-after", options.dump_after,
                 fmt::format("print the IR after the named pass to stderr: {}",
                             fmt::join(dump_after_names(), ", ")))
      ->check(CLI::IsMember(dump_after_names()))
      ->option_text("PASS")
      ->group(kDiagnostics);

  app.add_option("--depfile", depfile,
                 "also write a Make-format dependency file naming the output and every file "
                 "read for it (GCC's -MD, -MF FILE, -MT TARGET, -MP work too)")
      ->option_text("FILE")
      ->group(kBuild);
  app.footer(help_footer());

  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 consumes from the back
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp& e) {
    return print_to_stdout(app.help());
  } catch (const CLI::CallForVersion& e) {
    return print_to_stdout(e.what());
  } catch (const CLI::ExtrasError& e) {
    // An unknown option: say which known one it looks like.
    for (const std::string& extra : app.remaining()) {
      if (extra.size() > 1 && extra[0] == '-') {
        return usage_error(
            fmt::format("unknown option `{}`{}", extra, did_you_mean_option(app, extra)));
      }
    }
    return usage_error(e.what());
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }
  if (auto error = check_warning_flags(options)) return usage_error(*error);
  if (budget) {
    if (auto error = read_seconds("--budget", *budget, true, options.budget_seconds)) {
      return usage_error(*error);
    }
  }
  if (candidate_timeout) {
    if (auto error = read_seconds("--candidate-timeout", *candidate_timeout, false,
                                  options.candidate_timeout_s)) {
      return usage_error(*error);
    }
  }
  options.emit = emit == "reference"      ? EmitKind::kReference
                 : emit == "ir"           ? EmitKind::kIr
                 : emit == "report"       ? EmitKind::kReport
                 : emit == "config-space" ? EmitKind::kConfigSpace
                                          : EmitKind::kPallas;
  if (estimate) {
    if (app.count("--emit") > 0) return usage_error("--estimate and --emit do not go together");
    options.emit = EmitKind::kEstimate;
  }
  if (shapes) {
    Expected<std::vector<ShapeSet>> parsed = parse_shapes(*shapes, "--shapes");
    if (!parsed) return usage_error(parsed.error());
    options.shapes = std::move(*parsed);
  }
  if (shapes_file) {
    Expected<std::string> text = read_file(*shapes_file);
    if (!text) return usage_error(fmt::format("--shapes-file: {}", text.error()));
    Expected<std::vector<ShapeSet>> parsed = parse_shapes_file(*text, *shapes_file);
    if (!parsed) return usage_error(parsed.error());
    for (ShapeSet& set : *parsed) options.shapes.push_back(std::move(set));
    options.shapes_file = shapes_file;
  }
  const bool runner = options.search != "model";
  for (const char* name : {"--top", "--candidate-timeout", "--journal", "--resume"}) {
    if (app.count(name) > 0 && !runner) {
      return usage_error(fmt::format("{} is only used with --search measure or compile", name));
    }
  }
  if (app.count("--runs") > 0 && options.search != "measure") {
    return usage_error("--runs is only used with --search measure");
  }
  if (runner && (!options.config_out || *options.config_out == "-") && !options.journal) {
    return usage_error(fmt::format(
        "--search {} keeps a journal: give --config-out FILE or --journal", options.search));
  }
  if (options.autotune) {
    if (app.count("--emit") > 0 || estimate) {
      return usage_error("--autotune does not go with --emit or --estimate");
    }
    if (!options.configs.empty()) {
      return usage_error("--autotune writes a config; it does not read one (--config)");
    }
    if (!shapes && !shapes_file) {
      return usage_error("--autotune needs the calls to tune for: --shapes or --shapes-file");
    }
    // The YAML goes to stdout without --config-out: the module cannot go there too.
    if (options.output && *options.output == "-" &&
        (!options.config_out || *options.config_out == "-")) {
      return usage_error("--autotune -o - writes the module to stdout: give --config-out FILE");
    }
  } else {
    for (const char* name :
         {"--config-out", "--seed", "--budget", "--quiet", "--search", "--jobs"}) {
      if (app.count(name) > 0)
        return usage_error(fmt::format("{} is only used with --autotune", name));
    }
  }
  if ((shapes || shapes_file) && options.emit != EmitKind::kReport &&
      options.emit != EmitKind::kConfigSpace && options.emit != EmitKind::kEstimate &&
      !options.autotune) {
    return usage_error(
        fmt::format("{} is only used with `--emit report`, `--emit config-space`, `--estimate` "
                    "and `--autotune`",
                    shapes ? "--shapes" : "--shapes-file"));
  }
  options.color = color == "always"  ? ColorMode::kAlways
                  : color == "never" ? ColorMode::kNever
                                     : ColorMode::kAuto;
  options.diagnostics_format =
      diagnostics_format == "json" ? DiagnosticsFormat::kJson : DiagnosticsFormat::kText;
  if (depfile) {
    if (depfile_flags.path && *depfile_flags.path != *depfile) {
      return usage_error("--depfile and -MF name two different files");
    }
    depfile_flags.path = depfile;
  }
  Expected<std::optional<DepfileRequest>> request =
      resolve_depfile(depfile_flags, output_path(options));
  if (!request) return usage_error(request.error());
  options.depfile = std::move(*request);
  std::vector<std::pair<std::string, std::string>> outputs = {{"-o", output_path(options)}};
  if (options.config_out) outputs.emplace_back("--config-out", *options.config_out);
  if (options.depfile) outputs.emplace_back("the depfile", options.depfile->path);
  if (runner) {
    outputs.emplace_back("--journal", journal_path(options));
  }
  if (auto error = check_distinct_outputs(outputs)) return usage_error(*error);
  return options;
}

}  // namespace helionc::driver
