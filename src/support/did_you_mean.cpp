#include "support/did_you_mean.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

namespace helionc {
namespace {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t next = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = row[j];
      row[j] = next;
    }
  }
  return row[b.size()];
}

}  // namespace

std::optional<std::string_view> closest_name(std::string_view typed,
                                             std::span<const std::string_view> known) {
  if (std::find(known.begin(), known.end(), typed) != known.end()) return std::nullopt;
  std::optional<std::string_view> best;
  size_t best_distance = std::max<size_t>(2, typed.size() / 3) + 1;
  for (std::string_view candidate : known) {
    // A name cut short (`time` for `time_us`); not a longer one that starts like a known name
    // (`hl.dot_scaled` is another function than `hl.dot`).
    const bool prefix = typed.size() >= 3 && candidate.starts_with(typed);
    // The distance is at least the difference in length: no need to compute it for a name far
    // longer or shorter than the candidate (most of the time spent on mutated configs).
    const size_t length_gap =
        std::max(typed.size(), candidate.size()) - std::min(typed.size(), candidate.size());
    if (!prefix && length_gap >= best_distance) continue;
    const size_t distance = prefix ? 1 : edit_distance(typed, candidate);
    // A name that shares no letter in place with `typed` is no misspelling of it (`yy`, `x`).
    if (distance >= std::max(typed.size(), candidate.size())) continue;
    if (distance < best_distance) best = candidate, best_distance = distance;
  }
  return best;
}

std::string did_you_mean(std::string_view typed, std::span<const std::string_view> known) {
  const std::optional<std::string_view> best = closest_name(typed, known);
  return best ? fmt::format("; did you mean `{}`?", *best) : std::string();
}

}  // namespace helionc
