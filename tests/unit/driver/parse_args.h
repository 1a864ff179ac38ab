// Shared by the driver unit tests: the command-line parser run as main() runs it.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "driver/options.h"

namespace helionc::testing {

// Runs the parser over `args` (argv[0] added), as main() would.
inline std::variant<driver::DriverOptions, int> parse_args(std::vector<std::string> args) {
  args.insert(args.begin(), "helionc");
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  return driver::parse_command_line(static_cast<int>(argv.size()), argv.data());
}

}  // namespace helionc::testing
