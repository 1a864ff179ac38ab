#include "driver/autotune_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <optional>
#include <thread>

#include "autotune/resolve_config.h"
#include "driver/call_shapes.h"
#include "driver/compile_command.h"
#include "driver/measure_command.h"

namespace helionc::driver {

namespace {

// Progress and summaries on stderr, unless -q.
class Progress {
 public:
  explicit Progress(bool quiet) : quiet_(quiet) {}
  void line(const std::string& text) const {
    if (!quiet_) std::fprintf(stderr, "%s\n", text.c_str());
  }

 private:
  bool quiet_;
};

std::string summary_us(double value) { return fmt::format("{:.1f}", value); }

// The summary of one call: the winner and the best of every other strategy combination.
std::string summary(const std::string& call, const autotune::CallResult& r) {
  std::string text = fmt::format("autotune: {}: {} points, {} schedules judged, {} refused{}{}\n",
                                 call, r.space_size, r.evaluated, r.pruned,
                                 r.exhaustive ? " (exhaustive)" : " (sampled, then descent)",
                                 r.budget_exhausted ? ", budget spent" : "");
  std::vector<std::vector<std::string>> rows = {
      {"", "pallas_loop_type", "time_us", "% peak", "bound", "config"}};
  for (const auto& [strategies, best] : r.best_per_strategy) {
    const bool winner = r.best && r.best->strategies == best.first.strategies;
    rows.push_back({winner ? "*" : "", strategies, summary_us(best.second.time_us),
                    fmt::format("{:.1f}", best.second.fraction_of_peak * 100),
                    std::string(autotune::bound_name(best.second.bound)),
                    autotune::config_flow_yaml(best.first.config)});
  }
  text += aligned_table(rows);
  return text;
}

// Why a call has no legal config: its refusal reasons, most frequent first.
std::string failure(const std::string& call, const autotune::CallResult& r) {
  std::vector<std::pair<size_t, std::string>> reasons;
  for (const auto& [reason, count] : r.reasons) reasons.emplace_back(count, reason);
  std::sort(reasons.begin(), reasons.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> parts;
  for (size_t i = 0; i < reasons.size() && i < 3; ++i) {
    parts.push_back(fmt::format("{} ({} of {})", reasons[i].second, reasons[i].first, r.evaluated));
  }
  if (parts.empty()) parts.push_back("the kernel has an empty config space");
  return fmt::format("no legal config for `{}`: {}", call, fmt::join(parts, "; "));
}

// One call's search done: its summary, or why it has no legal config.
void report_call(size_t i, autotune::CallResult& r,
                 std::vector<std::optional<autotune::CallResult>>& found, AutotuneResult& result,
                 const Progress& progress, const std::vector<ShapeSet>& shapes) {
  if (!r.best) {
    result.failures.push_back(failure(shapes[i].text, r));
    return;
  }
  progress.line(summary(shapes[i].text, r));
  found[i] = std::move(r);
}

}  // namespace

Expected<AutotuneResult> autotune_kernel(const AutotuneInput& input) {
  const ir::Kernel& kernel = *input.kernel;
  const Progress progress(input.quiet);
  for (const ir::Param& param : kernel.params) {
    // The runner calls the module with arrays of the --shapes only.
    const ir::Binding& binding = kernel.bindings[param.binding];
    if (!input.runner.search.empty() && binding.type.kind == ir::TypeKind::kCallable) {
      return Error{fmt::format(
          "--search {}: kernel `{}` takes the callable `{}`, which the runner cannot give a "
          "call; rank its configs with the cost model (--search model)",
          input.runner.search, kernel.name, binding.name)};
    }
  }
  for (const ShapeSet& set : *input.shapes) {
    std::string why;
    if (!call_matches(kernel, set, why))
      return Error{fmt::format("--shapes call `{}`: {}", set.text, why)};
  }
  const autotune::KernelSearch search(kernel, *input.plan, *input.target);
  std::vector<passes::HostValues> calls;
  for (const ShapeSet& set : *input.shapes) calls.push_back(call_values(kernel, set));

  AutotuneResult result;
  std::vector<std::optional<autotune::CallResult>> found(calls.size());
  progress.line(fmt::format("autotune: kernel {} for {}, {} call{}, seed {}", kernel.name,
                            input.target->name, calls.size(), calls.size() == 1 ? "" : "s",
                            input.search.seed));
  // A call given twice is tuned once (a config file has one entry per shape).
  std::vector<size_t> unique;
  for (size_t i = 0; i < calls.size(); ++i) {
    bool repeated = false;
    for (size_t j = 0; j < i; ++j)
      repeated = repeated || (*input.shapes)[j].text == (*input.shapes)[i].text;
    if (!repeated) unique.push_back(i);
  }
  // With -j, calls are searched on that many threads; each search depends only on its call
  // and the seed, so the results (and the YAML) are those of one thread.
  const size_t jobs = std::max<size_t>(1, std::min(input.jobs, unique.size()));
  const bool live = jobs == 1 && !input.quiet && isatty(STDERR_FILENO);
  std::vector<autotune::CallResult> results(calls.size());
  const auto search_call = [&](size_t i) {
    const std::string& text = (*input.shapes)[i].text;
    autotune::SearchOptions options = input.search;
    options.keep_top = input.runner.search.empty() ? 1 : input.runner.top;
    if (live) {
      // A live line on a terminal, rewritten in place and cleared before the summary.
      options.progress = [&text](size_t visited, size_t planned) {
        std::fprintf(stderr, "\rautotune: %s: %zu of %zu points\x1b[K", text.c_str(), visited,
                     planned);
      };
    }
    results[i] = search.search(calls[i], options);
    if (options.progress) std::fprintf(stderr, "\r\x1b[K");
  };
  if (jobs == 1) {
    for (size_t i : unique) {
      search_call(i);
      report_call(i, results[i], found, result, progress, *input.shapes);
    }
  } else {
    std::atomic<size_t> next{0};
    std::vector<std::thread> threads;
    threads.reserve(jobs);
    for (size_t t = 0; t < jobs; ++t) {
      threads.emplace_back([&] {
        for (size_t n = next++; n < unique.size(); n = next++) search_call(unique[n]);
      });
    }
    for (std::thread& thread : threads) thread.join();
    for (size_t i : unique) report_call(i, results[i], found, result, progress, *input.shapes);
  }

  std::vector<CallOutcome> outcomes(calls.size());
  if (input.runner.search == "measure") {
    measure_winners(input.runner, *input.shapes, found, outcomes, result.search_failures);
  } else if (input.runner.search == "compile") {
    compile_winners(input.runner, input.target->compile_topology, *input.shapes, found, outcomes,
                    result.search_failures);
  }
  if (!result.search_failures.empty()) return result;
  // A config the runner turned down for some call is no default.
  const auto turned_down = [&](const autotune::KernelConfig& config) {
    for (const CallOutcome& outcome : outcomes) {
      for (const autotune::KernelConfig& refused : outcome.refused) {
        if (refused == config) return true;
      }
    }
    return false;
  };

  // The default: the winner that is best over all calls, relative to each call's best.
  std::optional<autotune::Candidate> fallback;
  double best_score = 0;
  for (const auto& winner : found) {
    if (!winner || turned_down(winner->best->config)) continue;
    double score = 0;
    bool everywhere = true;
    for (size_t i = 0; i < calls.size() && everywhere; ++i) {
      if (!found[i]) continue;
      const autotune::Evaluation ev = search.evaluate(*winner->best, calls[i]);
      everywhere = ev.legal;
      score += ev.time_us / found[i]->best_evaluation.time_us;
    }
    if (everywhere && (!fallback || score < best_score)) {
      fallback = winner->best;
      best_score = score;
    }
  }

  autotune::ConfigFile& file = result.config;
  file.kernel = kernel.name;
  file.source_sha256 = input.source_sha256;
  file.target = input.target->name;
  file.helionc_version = input.helionc_version;
  file.model_version = autotune::kCostModelVersion;
  if (fallback) file.default_config = fallback->config;
  for (size_t i = 0; i < calls.size(); ++i) {
    if (!found[i]) continue;
    autotune::ShapeEntry entry;
    for (const TensorShape& tensor : (*input.shapes)[i].tensors) {
      entry.shapes[tensor.name] = tensor.dims;
      entry.dtypes[tensor.name] = std::string(ir::dtype_name(tensor.dtype));
    }
    entry.config = found[i]->best->config;
    const autotune::Evaluation& ev = found[i]->best_evaluation;
    entry.predicted = autotune::Prediction{ev.time_us, ev.tflops, ev.vmem_bytes, ev.hbm_bytes};
    entry.measured = outcomes[i].measured;
    entry.verified = outcomes[i].verified;
    entry.comments = outcomes[i].comments;
    file.configs.push_back(std::move(entry));
  }
  result.yaml = autotune::write_config_yaml(
      file,
      fmt::format("generated by helionc {} --autotune{} (cost model version {}, seed {});\n"
                  "edits are kept only in hand-written files",
                  input.helionc_version,
                  input.runner.search.empty()
                      ? ""
                      : fmt::format(" --search {} --top {}", input.runner.search, input.runner.top),
                  autotune::kCostModelVersion, input.search.seed),
      autotune::config_labels(kernel));
  return result;
}

}  // namespace helionc::driver
