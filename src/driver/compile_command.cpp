#include "driver/compile_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <map>

#include "support/json.h"

namespace helionc::driver {

void compile_winners(RunnerRequest request, const std::string& topology,
                     const std::vector<ShapeSet>& shapes,
                     std::vector<std::optional<autotune::CallResult>>& found,
                     std::vector<CallOutcome>& outcomes, std::vector<std::string>& failures) {
  request.plan_fields.push_back(fmt::format("\"topology\": {}", json_quote(topology)));
  std::optional<FoundRun> run = run_found_calls(request, shapes, found, failures);
  if (!run) return;
  RunnerResult& verdicts = run->result;
  const std::string libtpu = verdicts.facts["libtpu"];
  const std::string jax = verdicts.facts["jax"];
  for (size_t c = 0; c < run->calls.size(); ++c) {
    const size_t i = run->calls[c];
    const std::vector<CandidateVerdict>& calls = verdicts.calls[c];
    const auto& top = found[i]->top;
    // The model's order: the first candidate that compiled wins.
    std::optional<size_t> winner;
    int64_t compiled = 0;
    std::map<std::string, int> statuses;
    std::vector<std::vector<std::string>> rows = {{"", "predicted_us", "status", "config"}};
    std::string messages;
    for (size_t k = 0; k < calls.size(); ++k) {
      const CandidateVerdict& v = calls[k];
      const std::string status = v.status.empty() ? "missing" : v.status;
      const std::string config = autotune::config_flow_yaml(top[k].first.config);
      ++statuses[status];
      if (status == "ok") {
        ++compiled;
        if (!winner) winner = k;
      } else {
        outcomes[i].comments.push_back(fmt::format("{}: {}: {}", status, config, v.message));
        outcomes[i].refused.push_back(top[k].first.config);
        messages += fmt::format("  candidate {} {}: {}\n", k, status, v.message);
      }
      rows.push_back(
          {winner == k ? "*" : "", fmt::format("{:.1f}", top[k].second.time_us), status, config});
    }
    if (!request.quiet) {
      std::fprintf(stderr, "compile: %s for %s (libtpu %s)\n%s%s\n", shapes[i].text.c_str(),
                   topology.c_str(), libtpu.c_str(), aligned_table(rows).c_str(), messages.c_str());
    }
    if (!winner) {
      std::vector<std::string> parts;
      for (const auto& [status, count] : statuses)
        parts.push_back(fmt::format("{} {}", count, status));
      failures.push_back(fmt::format(
          "--search compile: none of the {} candidates of `{}` compiled for {} ({}); the first: "
          "{}; a larger --top tries more of the model's candidates (--resume keeps these)",
          calls.size(), shapes[i].text, topology, fmt::join(parts, ", "), calls.front().message));
      continue;
    }
    found[i]->best = top[*winner].first;
    found[i]->best_evaluation = top[*winner].second;
    outcomes[i].verified =
        autotune::Verification{topology, libtpu, jax, static_cast<int64_t>(calls.size()), compiled};
  }
}

}  // namespace helionc::driver
