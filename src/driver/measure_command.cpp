#include "driver/measure_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <map>

namespace helionc::driver {

void measure_winners(RunnerRequest request, const std::vector<ShapeSet>& shapes,
                     std::vector<std::optional<autotune::CallResult>>& found,
                     std::vector<CallOutcome>& outcomes, std::vector<std::string>& failures) {
  std::optional<FoundRun> run = run_found_calls(request, shapes, found, failures);
  if (!run) return;
  RunnerResult& timings = run->result;
  const std::string device = timings.facts["device"];
  for (size_t c = 0; c < run->calls.size(); ++c) {
    const size_t i = run->calls[c];
    const std::vector<CandidateVerdict>& times = timings.calls[c];
    std::optional<size_t> fastest;
    int64_t ok = 0;
    std::map<std::string, int> statuses;
    std::vector<std::vector<std::string>> rows = {
        {"predicted_us", "measured_us", "status", "config"}};
    for (size_t k = 0; k < times.size(); ++k) {
      const CandidateVerdict& t = times[k];
      ++statuses[t.status.empty() ? "missing" : t.status];
      if (t.status == "ok" && t.time_us) {
        ++ok;
        if (!fastest || *t.time_us < *times[*fastest].time_us) fastest = k;
      }
      rows.push_back({fmt::format("{:.1f}", found[i]->top[k].second.time_us),
                      t.time_us ? fmt::format("{:.1f}", *t.time_us) : "-", t.status,
                      autotune::config_flow_yaml(found[i]->top[k].first.config)});
    }
    if (!request.quiet) {
      std::fprintf(stderr, "measure: %s on %s\n%s\n", shapes[i].text.c_str(), device.c_str(),
                   aligned_table(rows).c_str());
    }
    if (!fastest) {
      std::vector<std::string> parts;
      for (const auto& [status, count] : statuses)
        parts.push_back(fmt::format("{} {}", count, status));
      failures.push_back(fmt::format("--search measure: no candidate of `{}` ran correctly ({})",
                                     shapes[i].text, fmt::join(parts, ", ")));
      continue;
    }
    found[i]->best = found[i]->top[*fastest].first;
    found[i]->best_evaluation = found[i]->top[*fastest].second;
    outcomes[i].measured = autotune::Measurement{times[*fastest].time_us, device,
                                                 static_cast<int64_t>(times.size()), ok};
  }
}

}  // namespace helionc::driver
