// The command line (CLI11 lives only in the driver). Parsing never exits the process: it returns
// the options, or the exit status to stop with (0 after --help/--version, 2 for usage errors).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "autotune/targets.h"
#include "driver/depfile.h"
#include "driver/shapes.h"
#include "support/diagnostics.h"

namespace helionc::driver {

// kEstimate is `--estimate` (the cost model's predictions), not an `--emit` value.
enum class EmitKind { kPallas, kReference, kIr, kReport, kConfigSpace, kEstimate };
enum class ColorMode { kAuto, kAlways, kNever };

struct DriverOptions {
  std::string input;                  // a path, or "-" for standard input
  std::optional<std::string> output;  // -o; default: the input's stem + "_pallas.py"
  std::optional<std::string> kernel;  // --kernel
  std::vector<std::string> configs;   // --config, repeatable
  std::string target = autotune::default_target().name;  // --target
  EmitKind emit = EmitKind::kPallas;
  bool autodiff = true;  // false: --no-autodiff (public functions without their custom_vjp)
  std::optional<std::string> template_dir;
  ColorMode color = ColorMode::kAuto;
  DiagnosticsFormat diagnostics_format = DiagnosticsFormat::kText;
  bool verbose = false;
  bool warnings_as_errors = false;
  std::vector<std::pair<std::string, bool>> warning_flags;   // -W<name> / -Wno-<name>
  size_t max_errors = DiagnosticOptions::kDefaultMaxErrors;  // -fmax-errors=N (0: no limit)
  std::string dump_after;                                    // --dump-after=PASS
  // --shapes and --shapes-file, in that order (only with --emit report and --estimate).
  std::vector<ShapeSet> shapes;
  std::optional<std::string> shapes_file;  // named in the depfile
  std::optional<DepfileRequest> depfile;   // --depfile, -MD, -MF, -MT, -MP
  // --autotune and its options: the tuning YAML goes to --config-out (else stdout); the
  // module is written only with -o.
  bool autotune = false;
  std::optional<std::string> config_out;
  uint64_t seed = 0;
  double budget_seconds = 0;  // 0: no budget
  bool quiet = false;
  size_t jobs = 1;  // -j: calls searched at once
  // --search: model (the cost model alone), measure (the model's --top candidates per call
  // timed on the local JAX device, driver/measure_command.h) or compile (compiled for the
  // target's TPU generation by libtpu, driver/compile_command.h).
  std::string search = "model";
  size_t top = 8;
  int runs = 5;  // measure only
  // Catches a hang, not a slow compile: one attention candidate at 4x16x1024x64 bf16 takes
  // 30-40 s of CPU in libtpu (2026-12-06), and two or three times that on a busy machine.
  double candidate_timeout_s = 300;
  bool resume = false;
  std::optional<std::string> journal;  // default: <config-out>.journal
};

// Exit statuses (documented in the man page and README).
inline constexpr int kExitSuccess = 0;
inline constexpr int kExitCompileError = 1;
inline constexpr int kExitUsageError = 2;
// `--autotune` found no legal config for some call (the message names it and the reasons).
inline constexpr int kExitNoLegalConfig = 4;
// `--search measure` or `compile`: the runner could not run (no JAX, no libtpu), or no candidate
// of some call ran correctly (measure) or compiled (compile).
inline constexpr int kExitSearchFailed = 5;

std::variant<DriverOptions, int> parse_command_line(int argc, char** argv);

// Where the result goes: -o, else the input's stem + "_pallas.py" in the current directory (as
// a C compiler's object files), else "-" (standard output) for IR dumps, reports and stdin.
std::string output_path(const DriverOptions& options);

// The journal of `--search measure`/`compile`: --journal, else <config-out>.journal.
std::string journal_path(const DriverOptions& options);

// The supported --target names, in order of generation (configs/targets/*.yaml).
const std::vector<std::string>& target_names();

}  // namespace helionc::driver
