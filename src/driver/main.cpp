// helionc's entry point: parse the command line, run one compile.
#include <variant>

#include "driver/compile.h"
#include "driver/options.h"

int main(int argc, char** argv) {
  auto parsed = helionc::driver::parse_command_line(argc, argv);
  if (const int* status = std::get_if<int>(&parsed)) return *status;
  return helionc::driver::run_compile(std::get<helionc::driver::DriverOptions>(parsed));
}
