#include <catch2/catch.hpp>

#include <string>
#include <variant>
#include <vector>

#include "driver/options.h"

using helionc::driver::DriverOptions;
using helionc::driver::parse_command_line;

namespace {

// Runs the parser over `args` (argv[0] added), as main() would.
std::variant<DriverOptions, int> parse(std::vector<std::string> args) {
  args.insert(args.begin(), "helionc");
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  return parse_command_line(static_cast<int>(argv.size()), argv.data());
}

}  // namespace

TEST_CASE("the defaults") {
  auto parsed = parse({"k.py"});
  REQUIRE(std::holds_alternative<DriverOptions>(parsed));
  const auto& options = std::get<DriverOptions>(parsed);
  CHECK(options.input == "k.py");
  CHECK_FALSE(options.output.has_value());
  CHECK(options.target == "tpu-v7x");
  CHECK(options.emit == helionc::driver::EmitKind::kPallas);
}

TEST_CASE("words for enumerated options, GCC-style warning flags") {
  auto parsed = parse({"--emit", "ir", "--color", "never", "-Werror", "-Wno-ignored-keyword",
                       "--diagnostics-format", "json", "-o", "-", "k.py"});
  REQUIRE(std::holds_alternative<DriverOptions>(parsed));
  const auto& options = std::get<DriverOptions>(parsed);
  CHECK(options.emit == helionc::driver::EmitKind::kIr);
  CHECK(options.color == helionc::driver::ColorMode::kNever);
  CHECK(options.diagnostics_format == helionc::DiagnosticsFormat::kJson);
  CHECK(options.warnings_as_errors);
  REQUIRE(options.warning_flags.size() == 1);
  CHECK(options.warning_flags[0] == std::pair<std::string, bool>{"ignored-keyword", false});
  CHECK(options.output == "-");
}

TEST_CASE("usage errors exit with status 2") {
  CHECK(std::get<int>(parse({})) == helionc::driver::kExitUsageError);
  CHECK(std::get<int>(parse({"--emit", "llvm", "k.py"})) == helionc::driver::kExitUsageError);
  CHECK(std::get<int>(parse({"--target", "tpu-v9", "k.py"})) == helionc::driver::kExitUsageError);
  CHECK(std::get<int>(parse({"-Wnot-a-warning", "k.py"})) == helionc::driver::kExitUsageError);
}
