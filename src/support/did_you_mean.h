// "did you mean ...?": the one rule for suggesting a known name in place of a misspelled one,
// used for config keys, torch/hl functions, names in kernels, command-line options and warning
// names alike.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace helionc {

// The name of `known` that `typed` most likely meant: within an edit distance of a third of its
// length (at least 2; insertions, deletions and substitutions) that keeps some of its
// characters, or one of which `typed`, at least 3 characters long, is the start (`time` for
// `time_us`). The first of equally close names wins; nullopt when none is close, or when `typed`
// is itself known.
std::optional<std::string_view> closest_name(std::string_view typed,
                                             std::span<const std::string_view> known);

// " (did you mean `name`?)"-style suffixes are phrased by each caller; this is the common one:
// "; did you mean `name`?", or "" when no name is close.
std::string did_you_mean(std::string_view typed, std::span<const std::string_view> known);

}  // namespace helionc
