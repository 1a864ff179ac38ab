#include <catch2/catch.hpp>

#include <string>
#include <variant>
#include <vector>

#include "driver/options.h"

using helionc::driver::ColorMode;
using helionc::driver::DriverOptions;

namespace {

ColorMode color_of(std::vector<std::string> args) {
  args.insert(args.begin(), "helionc");
  args.push_back("k.py");
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  auto parsed = helionc::driver::parse_command_line(static_cast<int>(argv.size()), argv.data());
  REQUIRE(std::holds_alternative<DriverOptions>(parsed));
  return std::get<DriverOptions>(parsed).color;
}

}  // namespace

TEST_CASE("-fdiagnostics-color is an alias of --color; the last one wins") {
  CHECK(color_of({}) == ColorMode::kAuto);
  CHECK(color_of({"-fdiagnostics-color"}) == ColorMode::kAlways);
  CHECK(color_of({"-fdiagnostics-color=never"}) == ColorMode::kNever);
  CHECK(color_of({"-fdiagnostics-color=auto"}) == ColorMode::kAuto);
  CHECK(color_of({"-fno-diagnostics-color"}) == ColorMode::kNever);
  CHECK(color_of({"--color", "never", "-fdiagnostics-color"}) == ColorMode::kAlways);
  CHECK(color_of({"-fdiagnostics-color", "--color=never"}) == ColorMode::kNever);
}

TEST_CASE("-fdiagnostics-color=WHEN takes --color's words only") {
  std::vector<std::string> args{"helionc", "-fdiagnostics-color=sometimes", "k.py"};
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  auto parsed = helionc::driver::parse_command_line(static_cast<int>(argv.size()), argv.data());
  REQUIRE(std::holds_alternative<int>(parsed));
  CHECK(std::get<int>(parsed) == helionc::driver::kExitUsageError);
}
