// `helionc --version`: what a bug report needs to reproduce a module.
#pragma once

#include <string>

namespace helionc::driver {

// "helionc 0.1.0 (git REVISION)", then the grammar and the parser runtime it was built with.
std::string version_text();

}  // namespace helionc::driver
