// One compiler run: read the input, parse, lower, run the passes, print, write atomically.
// Knows files and exit codes; knows nothing of the command-line syntax.
#pragma once

#include "driver/options.h"

namespace helionc::driver {

// Returns the process exit status (0 success, 1 compile errors).
int run_compile(const DriverOptions& options);

}  // namespace helionc::driver
