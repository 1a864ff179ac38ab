// `--emit config-space`: per kernel and `--shapes` call, the config space the search
// (autotune/search.h) walks: each tunable and inner loop with the values it takes, which of
// them give legal schedules, which are pruned (with the most frequent reason), which only
// repeat another value's schedule, and the strategies that do not apply (with why), as YAML on
// standard output. Values are judged by the search itself, exhaustively when the space is
// small (otherwise over the points it visits: `exhaustive: false`).
#pragma once

#include <string>

#include "driver/report.h"
#include "support/expected.h"

namespace helionc::driver {

// A `--shapes` call that is no call of any kernel is an Error (a usage error).
Expected<std::string> emit_config_space(const ReportInput& input);

}  // namespace helionc::driver
