// The built-in search (issue 10, product.md §4): the config space of a kernel for one call's
// shapes, each point judged by the compiler's own code (passes::account_launch for the
// resources, judge_launch for the fit) and ranked by the cost model. Nothing is printed to
// judge a point.
//
// The space, per kernel:
// - a block size per tunable: powers of two from the role's multiple (lanes 128; sublanes 8,
//   16 or 32 for 32-, 16- and 8-bit data, the packing of the operands the dimension tiles;
//   leading axes 1) up to the dimension rounded up to a power of two (at most 4096, and 64 on
//   leading axes), plus the whole dimension; points the prelude's `_legal_block` turns into
//   the same blocks as an earlier point are dropped, so every schedule is judged once; a
//   block size from `hl.register_block_size(min, max)` offers only the blocks in its range
//   (past the leading cap if the range asks), or the legal block nearest to it;
// - a `pallas_loop_type` per inner loop of the kernel, among those that apply to it
//   (InnerLoop::reason_against);
// - for `fori_loop` loops, `pallas_load_buffer_count` 1, 2 or 3;
// - for each launch whose own loop tiles several dimensions, every order of its grid
//   (`loop_orders`, written only when some launch's order is not the one written): the order
//   decides which operands a step re-reads (launch_resources.h); orders that differ only in
//   where single-step axes go give the same schedule and are judged once.
// `vmem_limit_bytes` is set to the target's VMEM when a config needs more than the target's
// default scoped limit (default_scoped_vmem_bytes).
//
// Exhaustive when the space has at most SearchOptions::exhaustive_limit points; otherwise a
// sample of that many points drawn with the seed, then coordinate descent from the best one
// (one coordinate at a time, every value, until nothing improves). The same kernel, shapes,
// target and seed give the same result unless the budget runs out first.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "autotune/config.h"
#include "autotune/cost_model.h"
#include "autotune/targets.h"
#include "ir/nodes.h"
#include "passes/host_values.h"
#include "passes/launch_plan.h"
#include "passes/launch_resources.h"
#include "support/expected.h"

namespace helionc::autotune {

// One point of the space: the config as written to YAML, and the strategy of every inner
// loop of the kernel.
struct Candidate {
  KernelConfig config;
  std::vector<passes::LoopStrategy> strategies;
};

// A candidate judged for one call: pruned with a reason, or the model's figures summed over
// the kernel's launches.
struct Evaluation {
  bool legal = false;
  std::string reason;  // why not, when not legal
  double time_us = 0;
  double tflops = 0;
  double fraction_of_peak = 0;  // of the slowest launch
  Bound bound = Bound::kNone;   // of the slowest launch (none: the kernel launches nothing)
  int64_t vmem_bytes = 0;       // the largest launch's
  int64_t hbm_bytes = 0;        // all launches'
};

struct SearchOptions {
  uint64_t seed = 0;
  double budget_seconds = 0;  // 0: none
  size_t exhaustive_limit = 20000;
  // How many of the fastest legal candidates CallResult::top keeps (`--search measure --top`).
  size_t keep_top = 1;
  // Called now and then with the points visited so far and the points the search will visit
  // at most (for a live progress line); may be empty.
  std::function<void(size_t visited, size_t planned)> progress;
};

// What the search saw of one value of one coordinate (a tunable or an inner loop's strategy):
// how many schedules with it were legal, how many repeated an earlier schedule (a block the
// prelude's `_legal_block` turns into another one), and why the others were refused.
struct ValueStats {
  std::string value;  // "128", "fori_loop, 3 slots"
  size_t legal = 0;
  size_t repeated = 0;
  std::map<std::string, size_t> refused;
};

struct CoordinateStats {
  std::string name;  // "block_sizes[0]", "pallas_loop_type[1]", "loop_orders[0]"
  std::string dims;  // the tile dimensions it sizes or loops over
  std::vector<ValueStats> values;
  // Inner loops: the strategies that do not apply, with InnerLoop::reason_against.
  std::vector<std::pair<std::string, std::string>> not_applicable;
};

struct CallResult {
  std::optional<Candidate> best;
  Evaluation best_evaluation;
  // The SearchOptions::keep_top fastest legal candidates, fastest first (distinct schedules;
  // ties in the order the search met them). The first is `best`.
  std::vector<std::pair<Candidate, Evaluation>> top;
  size_t space_size = 0;  // points of the space (before dropping duplicate schedules)
  size_t evaluated = 0;   // distinct schedules judged
  size_t pruned = 0;      // of those, refused
  bool exhaustive = false;
  bool budget_exhausted = false;
  // Why candidates were refused: each distinct reason with how many.
  std::map<std::string, size_t> reasons;
  // The best legal candidate of each strategy combination (by its pallas_loop_type text).
  std::map<std::string, std::pair<Candidate, Evaluation>> best_per_strategy;
  // Per coordinate of the space, what became of each value (`--emit config-space`).
  std::vector<CoordinateStats> coordinates;
};

class KernelSearch {
 public:
  KernelSearch(const ir::Kernel& kernel, const passes::KernelPlan& plan, const TargetInfo& target);

  // Judges one candidate for a call.
  Evaluation evaluate(const Candidate& candidate, const passes::HostValues& call) const;

  // The best candidate for a call.
  CallResult search(const passes::HostValues& call, const SearchOptions& options) const;

 private:
  struct Coordinate;
  CallResult explore(const passes::HostValues& call, const SearchOptions& options) const;
  std::vector<Coordinate> coordinates(const passes::HostValues& call) const;
  // The bounds `hl.register_block_size` gives tunable `tunable` for this call, where known.
  std::pair<std::optional<int64_t>, std::optional<int64_t>> registered_range(
      int tunable, const passes::HostValues& call) const;
  std::vector<CoordinateStats> stats(const std::vector<Coordinate>& coords) const;
  Candidate candidate(const std::vector<Coordinate>& coords,
                      const std::vector<size_t>& point) const;
  // The resources of each launch that runs in the call, accounted once per point for both
  // the duplicate check and the evaluation.
  struct Accounted {
    const passes::Launch* launch = nullptr;
    passes::LaunchChoices choices;
    Expected<passes::LaunchResources> resources;
  };
  std::vector<Accounted> account(const Candidate& candidate, const passes::HostValues& call) const;
  Evaluation evaluate(const Candidate& candidate, const std::vector<Accounted>& launches) const;
  // The schedule a candidate gives for a call (its launches' blocks, strategies and the order
  // of their grids' multi-step axes), to drop points that give the same one; empty when it
  // cannot be computed.
  // Whether some launch has two or more own grid axes of more than one step, so that the
  // order of its grid can change what moves.
  static bool orders_matter(const std::vector<Accounted>& launches);
  static std::string schedule_key(const Candidate& candidate,
                                  const std::vector<Accounted>& launches);

  const ir::Kernel& kernel_;
  const passes::KernelPlan& plan_;
  const TargetInfo& target_;
};

// Whether `launch` runs for the call: not when one of its operands is an optional tensor the
// call leaves out (None), which launch_resources.h refuses to account.
bool launch_runs(const passes::Launch& launch, const passes::HostValues& call);

// "grid", "unroll, emit_pipeline": a strategy combination for messages and tables.
std::string strategy_text(const std::vector<passes::LoopStrategy>& strategies);

}  // namespace helionc::autotune
