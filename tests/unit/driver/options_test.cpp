#include <catch2/catch.hpp>

#include <string>
#include <variant>
#include <vector>

#include "driver/options.h"
#include "driver/parse_args.h"

using helionc::driver::DriverOptions;
using helionc::testing::parse_args;

TEST_CASE("the defaults") {
  auto parsed = parse_args({"k.py"});
  REQUIRE(std::holds_alternative<DriverOptions>(parsed));
  const auto& options = std::get<DriverOptions>(parsed);
  CHECK(options.input == "k.py");
  CHECK_FALSE(options.output.has_value());
  CHECK(options.target == "tpu-v7x");
  CHECK(options.emit == helionc::driver::EmitKind::kPallas);
}

TEST_CASE("words for enumerated options, GCC-style warning flags") {
  auto parsed = parse_args({"--emit", "ir", "--color", "never", "-Werror", "-Wno-ignored-keyword",
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
  CHECK(std::get<int>(parse_args({})) == helionc::driver::kExitUsageError);
  CHECK(std::get<int>(parse_args({"--emit", "llvm", "k.py"})) == helionc::driver::kExitUsageError);
  CHECK(std::get<int>(parse_args({"--target", "tpu-v9", "k.py"})) ==
        helionc::driver::kExitUsageError);
  CHECK(std::get<int>(parse_args({"-Wnot-a-warning", "k.py"})) == helionc::driver::kExitUsageError);
}
