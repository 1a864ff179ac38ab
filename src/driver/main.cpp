// helionc's entry point: parse the command line, run one compile.
//
// Every exception that escapes is a bug in helionc (user errors are diagnostics) or the machine
// running out of memory; either way the contract is exit status 3 with "internal error", never
// std::terminate's abort. No output file can have been written: outputs are renamed into place
// only after a clean compile, as the last step.
#include <exception>
#include <new>
#include <string>
#include <variant>

#include "driver/compile.h"
#include "driver/options.h"
#include "support/internal_check.h"

int main(int argc, char** argv) {
  try {
    auto parsed = helionc::driver::parse_command_line(argc, argv);
    if (const int* status = std::get_if<int>(&parsed)) return *status;
    return helionc::driver::run_compile(std::get<helionc::driver::DriverOptions>(parsed));
  } catch (const std::bad_alloc&) {
    HELIONC_UNREACHABLE("out of memory");
  } catch (const std::exception& e) {
    HELIONC_UNREACHABLE(std::string("uncaught exception: ") + e.what());
  } catch (...) {
    HELIONC_UNREACHABLE("uncaught exception of an unknown type");
  }
}
