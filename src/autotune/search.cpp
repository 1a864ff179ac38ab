#include "autotune/search.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <random>
#include <set>

#include "autotune/legality.h"
#include "autotune/resolve_config.h"
#include "passes/launch_resources.h"
#include "passes/legal_block.h"

namespace helionc::autotune {

namespace {

using passes::LoopStrategy;

// The largest block tried per role; leading axes multiply the VMEM of every operand.
constexpr int64_t kMaxBlock = 4096;
constexpr int64_t kMaxLeadingBlock = 64;

int64_t next_pow2(int64_t n) {
  int64_t p = 1;
  while (p < n && p < (int64_t{1} << 40)) p *= 2;
  return p;
}

}  // namespace

// One axis of the space: a tunable's block sizes, an inner loop's (strategy, buffers), or a
// multi-dimensional launch's grid orders (`loop_orders`).
struct KernelSearch::Coordinate {
  enum class Kind { kBlock, kLoop, kOrder, kUser };
  Kind kind = Kind::kBlock;
  // The tunable, the inner loop among the kernel's, the loop_orders entry, or the
  // `hl.register_tunable` key (Kernel::user_tunables)
  int index = -1;
  std::vector<int64_t> blocks;  // also a kUser key's values, its default first
  bool boolean = false;         // kUser: printed true/false
  std::vector<std::pair<LoopStrategy, int64_t>> loops;  // buffers 0: the default
  std::vector<std::vector<int64_t>> orders;             // the first is the order as written
  size_t size() const {
    switch (kind) {
      case Kind::kBlock:
      case Kind::kUser:
        return blocks.size();
      case Kind::kLoop:
        return loops.size();
      case Kind::kOrder:
        return orders.size();
    }
    return 0;
  }
  std::string value(size_t i) const {
    if (kind == Kind::kUser && boolean) return blocks[i] != 0 ? "true" : "false";
    if (kind == Kind::kBlock || kind == Kind::kUser) return std::to_string(blocks[i]);
    if (kind == Kind::kOrder) return fmt::format("[{}]", fmt::join(orders[i], ", "));
    const auto [strategy, buffers] = loops[i];
    std::string text(passes::loop_strategy_name(strategy));
    if (buffers > 0) text += fmt::format(", {} slot{}", buffers, buffers == 1 ? "" : "s");
    return text;
  }
};

bool launch_runs(const passes::Launch& launch, const passes::HostValues& call) {
  for (const passes::Input& input : launch.inputs) {
    if (call.absent_optional(input.operand.binding)) return false;
  }
  for (const passes::Output& output : launch.outputs) {
    if (call.absent_optional(output.operand.binding)) return false;
  }
  return true;
}

std::string strategy_text(const std::vector<LoopStrategy>& strategies) {
  std::vector<std::string_view> names;
  for (LoopStrategy s : strategies) names.push_back(passes::loop_strategy_name(s));
  return names.empty() ? "no inner loops" : fmt::format("{}", fmt::join(names, ", "));
}

KernelSearch::KernelSearch(const ir::Kernel& kernel, const passes::KernelPlan& plan,
                           const TargetInfo& target)
    : kernel_(kernel), plan_(plan), target_(target) {}

std::pair<std::optional<int64_t>, std::optional<int64_t>> KernelSearch::registered_range(
    int tunable, const passes::HostValues& call) const {
  if (static_cast<size_t>(tunable) >= kernel_.tunable_block_ranges.size()) return {};
  const ir::Kernel::BlockRange& range = kernel_.tunable_block_ranges[tunable];
  const auto value = [&](const ir::ExprPtr& bound) -> std::optional<int64_t> {
    if (!bound) return std::nullopt;
    const std::optional<int64_t> v = call.int_value(bound);
    if (v && *v >= 1) return v;
    return std::nullopt;
  };
  return {value(range.min), value(range.max)};
}

std::vector<KernelSearch::Coordinate> KernelSearch::coordinates(
    const passes::HostValues& call) const {
  std::vector<Coordinate> coords;
  for (int t = 0; t < kernel_.num_tunable_blocks; ++t) {
    // The strictest role and the narrowest dtype among the dimensions this tunable sizes.
    int64_t size = 0, multiple = 1, cap = kMaxLeadingBlock;
    for (const passes::Launch& launch : plan_.launches) {
      for (const passes::GridDim& grid : launch.grid) {
        const ir::TileDim& dim = kernel_.tile_dims[grid.tile_dim];
        if (dim.block.kind != ir::BlockSource::Kind::kTunable || dim.block.tunable != t) continue;
        std::optional<int64_t> extent;
        if (grid.size_binding >= 0) {
          extent = call.axis_size(grid.size_binding, grid.size_axis);
        } else if (dim.extent) {
          extent = call.int_value(dim.extent);
        }
        size = std::max(size, extent.value_or(kMaxBlock));
        const passes::BlockRole role = passes::block_role(grid);
        if (role == passes::BlockRole::kLane || role == passes::BlockRole::kFlat) {
          multiple = std::max<int64_t>(multiple, 128);
          cap = kMaxBlock;
        } else if (role == passes::BlockRole::kSublane) {
          for (const passes::TileUse& use : grid.uses) {
            const passes::Operand& operand = use.output ? launch.outputs[use.operand].operand
                                                        : launch.inputs[use.operand].operand;
            const int bits =
                ir::dtype_bits(call.dtype(operand.binding).value_or(ir::ScalarType::kFloat32));
            multiple = std::max<int64_t>(multiple, 8 * 32 / std::max(bits, 8));
          }
          cap = kMaxBlock;
        }
      }
    }
    Coordinate c;
    c.kind = Coordinate::Kind::kBlock;
    c.index = t;
    // `hl.register_block_size(min, max)`: only blocks within the user's range (its max rounded
    // up to a power of two, as Helion's autotuner does), reaching past the role's own cap when
    // the range asks; `(max)` alone only lowers the cap.
    const auto [low, high] = registered_range(t, call);
    if (low && high) cap = std::max(cap, next_pow2(*high));
    if (size <= multiple) {
      c.blocks.push_back(std::max<int64_t>(size, 1));
    } else {
      for (int64_t b = multiple; b <= std::min(cap, next_pow2(size)); b *= 2) c.blocks.push_back(b);
      if (size <= cap && std::find(c.blocks.begin(), c.blocks.end(), size) == c.blocks.end()) {
        c.blocks.push_back(size);
      }
    }
    // A block a store fixes (`out[tile_m, :] = x[tile_m.begin + hl.arange(8), :]`): any other
    // is the module's trace-time error (ir::TileDim::stored_block).
    for (const ir::TileDim& dim : kernel_.tile_dims) {
      if (dim.block.kind == ir::BlockSource::Kind::kTunable && dim.block.tunable == t &&
          dim.stored_block > 0) {
        c.blocks = {dim.stored_block};
      }
      // A view groups the block (`tile.block_size // 2`, ir::TileDim::grouped): a block the
      // divisor does not divide is the module's trace-time error.
      if (dim.block.kind == ir::BlockSource::Kind::kTunable && dim.block.tunable == t &&
          dim.grouped > 0) {
        std::erase_if(c.blocks, [&](int64_t b) { return b % dim.grouped != 0; });
        if (c.blocks.empty()) c.blocks.push_back(dim.grouped);
      }
      // A window reads rows [0, window_rows) of every block (ir::TileDim::window_rows): a block,
      // or a last block, with fewer rows is the module's trace-time error.
      if (dim.block.kind == ir::BlockSource::Kind::kTunable && dim.block.tunable == t &&
          dim.window_rows > 0) {
        std::erase_if(c.blocks, [&](int64_t b) {
          return passes::leaves_short_block(b, size, dim.window_rows);
        });
        if (c.blocks.empty()) c.blocks.push_back(std::max<int64_t>(size, 1));
      }
    }
    if (low || high) {
      const int64_t lo = low.value_or(1);
      const int64_t hi = high ? next_pow2(*high) : std::numeric_limits<int64_t>::max();
      std::vector<int64_t> kept;
      for (int64_t b : c.blocks) {
        if (b >= lo && b <= hi) kept.push_back(b);
      }
      // A range that no legal block meets (below the role's multiple, above the axis): the
      // legal block nearest to it, which is what `_legal_block` makes of any block in it.
      if (kept.empty()) kept.push_back(hi < c.blocks.front() ? c.blocks.front() : c.blocks.back());
      c.blocks = std::move(kept);
    }
    coords.push_back(std::move(c));
  }
  for (const passes::Launch& launch : plan_.launches) {
    const size_t first = passes::first_inner_loop(plan_, launch.index);
    for (size_t i = 0; i < launch.inner_loops.size(); ++i) {
      Coordinate c;
      c.kind = Coordinate::Kind::kLoop;
      c.index = static_cast<int>(first + i);
      for (int s = 0; s < passes::kLoopStrategyCount; ++s) {
        const auto strategy = static_cast<LoopStrategy>(s);
        if (!launch.inner_loops[i].reason_against(strategy).empty()) continue;
        if (strategy == LoopStrategy::kForiLoop) {
          for (int64_t buffers = 1; buffers <= 3; ++buffers)
            c.loops.emplace_back(strategy, buffers);
        } else {
          c.loops.emplace_back(strategy, 0);
        }
      }
      coords.push_back(std::move(c));
    }
  }
  // Every order of a multi-dimensional launch's grid: which operand a step re-reads depends
  // on which axis is innermost (the cost model sees it through the HBM bytes).
  for (const passes::Launch& launch : plan_.launches) {
    const int entry = passes::loop_order_entry(plan_, launch.index);
    if (entry < 0) continue;
    Coordinate c;
    c.kind = Coordinate::Kind::kOrder;
    c.index = entry;
    // The default order first (point 0 writes no `loop_orders`), then every other order the
    // config check accepts (revisited dimensions innermost).
    const std::vector<int64_t> default_order = passes::default_grid_order(launch);
    c.orders.push_back(default_order);
    std::vector<int64_t> order = default_order;
    std::sort(order.begin(), order.end());
    do {
      if (order != default_order && passes::order_keeps_revisited_last(launch, order)) {
        c.orders.push_back(order);
      }
    } while (std::next_permutation(order.begin(), order.end()));
    coords.push_back(std::move(c));
  }
  // `hl.register_tunable` keys: every value their fragment allows, the default first (point 0
  // is the default config). The model sees them through the host values they feed (a block
  // size computed from one, `helion.next_power_of_2(helion.cdiv(k, split_k))`).
  for (size_t u = 0; u < kernel_.user_tunables.size(); ++u) {
    const ir::UserTunable& tunable = kernel_.user_tunables[u];
    Coordinate c;
    c.kind = Coordinate::Kind::kUser;
    c.index = static_cast<int>(u);
    c.boolean = tunable.kind == ir::UserTunable::Kind::kBoolean;
    c.blocks.push_back(tunable.default_value);
    for (int64_t value : tunable.legal_values()) {
      if (value != tunable.default_value) c.blocks.push_back(value);
    }
    coords.push_back(std::move(c));
  }
  return coords;
}

std::vector<CoordinateStats> KernelSearch::stats(const std::vector<Coordinate>& coords) const {
  std::vector<CoordinateStats> result;
  std::vector<const passes::InnerLoop*> loops;
  for (const passes::Launch& launch : plan_.launches) {
    for (const passes::InnerLoop& loop : launch.inner_loops) loops.push_back(&loop);
  }
  for (const Coordinate& c : coords) {
    CoordinateStats stats;
    std::vector<std::string> dims;
    if (c.kind == Coordinate::Kind::kOrder) {
      stats.name = fmt::format("loop_orders[{}]", c.index);
      for (const passes::Launch& launch : plan_.launches) {
        if (passes::loop_order_entry(plan_, launch.index) != c.index) continue;
        for (int d : launch.tile_loop().tile_dims) dims.push_back(kernel_.tile_dims[d].name);
      }
    } else if (c.kind == Coordinate::Kind::kUser) {
      stats.name = kernel_.user_tunables[static_cast<size_t>(c.index)].name;
    } else if (c.kind == Coordinate::Kind::kBlock) {
      stats.name = fmt::format("block_sizes[{}]", c.index);
      for (const ir::TileDim& dim : kernel_.tile_dims) {
        if (dim.block.kind == ir::BlockSource::Kind::kTunable && dim.block.tunable == c.index) {
          dims.push_back(dim.name);
        }
      }
    } else {
      stats.name = fmt::format("pallas_loop_type[{}]", c.index);
      const passes::InnerLoop& loop = *loops[static_cast<size_t>(c.index)];
      for (int d : loop.tile_loop().tile_dims) dims.push_back(kernel_.tile_dims[d].name);
      for (int s = 0; s < passes::kLoopStrategyCount; ++s) {
        const std::string& why = loop.reason_against(static_cast<LoopStrategy>(s));
        if (!why.empty()) {
          stats.not_applicable.emplace_back(
              passes::loop_strategy_name(static_cast<LoopStrategy>(s)), why);
        }
      }
    }
    stats.dims = fmt::format("{}", fmt::join(dims, ", "));
    for (size_t v = 0; v < c.size(); ++v) stats.values.push_back({c.value(v), 0, 0, {}});
    result.push_back(std::move(stats));
  }
  return result;
}

Candidate KernelSearch::candidate(const std::vector<Coordinate>& coords,
                                  const std::vector<size_t>& point) const {
  Candidate cand;
  cand.config.block_sizes.assign(static_cast<size_t>(kernel_.num_tunable_blocks), 1);
  std::vector<int64_t> buffers;
  bool custom_buffers = false;
  std::vector<std::vector<int64_t>> orders;
  bool custom_orders = false;
  for (size_t i = 0; i < coords.size(); ++i) {
    const Coordinate& c = coords[i];
    if (c.kind == Coordinate::Kind::kBlock) {
      cand.config.block_sizes[static_cast<size_t>(c.index)] = c.blocks[point[i]];
      continue;
    }
    if (c.kind == Coordinate::Kind::kUser) {
      cand.config.tunables[kernel_.user_tunables[static_cast<size_t>(c.index)].name] = {
          c.value(point[i]), false};
      continue;
    }
    if (c.kind == Coordinate::Kind::kOrder) {
      orders.push_back(c.orders[point[i]]);
      custom_orders = custom_orders || point[i] != 0;
      continue;
    }
    const auto [strategy, count] = c.loops[point[i]];
    cand.strategies.push_back(strategy);
    cand.config.pallas_loop_type.emplace_back(passes::loop_strategy_name(strategy));
    buffers.push_back(count == 0 ? passes::kDefaultBufferCount : count);
    custom_buffers = custom_buffers || (count != 0 && count != passes::kDefaultBufferCount);
  }
  if (custom_buffers) cand.config.pallas_load_buffer_count = buffers;
  // Written only when some grid is reordered, so default orders leave the YAML as before.
  if (custom_orders) cand.config.loop_orders = orders;
  return cand;
}

std::vector<KernelSearch::Accounted> KernelSearch::account(const Candidate& cand,
                                                           const passes::HostValues& call) const {
  std::vector<Accounted> launches;
  // The candidate's `hl.register_tunable` values, for the host values computed from them.
  std::optional<passes::HostValues> tuned;
  if (!kernel_.user_tunables.empty()) {
    tuned.emplace(call);
    std::vector<int64_t> values;
    for (const ir::UserTunable& tunable : kernel_.user_tunables) {
      values.push_back(user_tunable_value(cand.config, tunable));
    }
    tuned->set_tunable_values(std::move(values));
  }
  const passes::HostValues& values = tuned ? *tuned : call;
  for (const passes::Launch& launch : plan_.launches) {
    if (!launch_runs(launch, values)) continue;
    // A candidate's config is in helionc's own form (one buffer count per inner loop).
    passes::LaunchChoices choices =
        launch_choices(cand.config, {cand.strategies, cand.config.pallas_load_buffer_count}, plan_,
                       launch, target_);
    Expected<passes::LaunchResources> r = passes::account_launch(kernel_, launch, values, choices);
    launches.push_back({&launch, std::move(choices), std::move(r)});
  }
  return launches;
}

std::string KernelSearch::schedule_key(const Candidate& cand,
                                       const std::vector<Accounted>& launches) {
  std::string key = strategy_text(cand.strategies) +
                    fmt::format("|{}", fmt::join(cand.config.pallas_load_buffer_count, ","));
  // A tunable may change what the kernel computes, not only its blocks: never the same
  // schedule as another value.
  for (const auto& [name, value] : cand.config.tunables)
    key += fmt::format("|{}={}", name, value.text);
  for (const Accounted& a : launches) {
    if (!a.resources) return "";
    const passes::LaunchResources& r = *a.resources;
    key += fmt::format("|{}", fmt::join(r.blocks, ","));
    // The grid's order matters only among axes of more than one step.
    for (size_t g = 0; g < r.grid.size(); ++g) {
      if (r.grid[g] > 1) key += fmt::format(":{}", r.grid_names[g]);
    }
  }
  return key;
}

bool KernelSearch::orders_matter(const std::vector<Accounted>& launches) {
  for (const Accounted& a : launches) {
    if (!passes::orders_grid(*a.launch)) continue;
    if (!a.resources) return true;  // unknown: judge every order
    size_t multi_step = 0;
    for (size_t d = 0; d < a.launch->tile_loop().tile_dims.size(); ++d) {
      if (a.resources->dim_steps[d] > 1) ++multi_step;
    }
    if (multi_step > 1) return true;
  }
  return false;
}

Evaluation KernelSearch::evaluate(const Candidate& cand, const passes::HostValues& call) const {
  return evaluate(cand, account(cand, call));
}

Evaluation KernelSearch::evaluate(const Candidate& cand,
                                  const std::vector<Accounted>& launches) const {
  Evaluation ev;
  double flops = 0, slowest = -1;
  for (const Accounted& a : launches) {
    const passes::Launch& launch = *a.launch;
    if (!a.resources) {
      ev.reason = fmt::format("launch {}: {}", launch.index, a.resources.error());
      return ev;
    }
    const passes::LaunchResources& r = *a.resources;
    // Paired loops (passes::GridDim::from_begin) need equal blocks: the module's trace-time
    // error (`_paired_blocks`) otherwise.
    for (size_t g = 0; g < launch.grid.size(); ++g) {
      const ir::TileDim& dim = kernel_.tile_dims[launch.grid[g].tile_dim];
      if (!launch.grid[g].from_begin) continue;
      for (size_t p = 0; p < launch.grid.size(); ++p) {
        if (launch.grid[p].tile_dim == dim.paired_with && r.blocks[p] != r.blocks[g]) {
          ev.reason =
              fmt::format("launch {}: the paired loops over `{}` and `{}` need equal blocks",
                          launch.index, dim.name, kernel_.tile_dims[dim.paired_with].name);
          return ev;
        }
      }
    }
    const LaunchVerdict verdict = judge_launch(r, target_, cand.config.vmem_limit_bytes);
    if (!verdict.fits) {
      // Without the figures, so that every candidate refused for the same reason counts once.
      const bool vmem = r.vmem_bytes > verdict.vmem_capacity;
      ev.reason = fmt::format(
          "launch {} needs more {} than the {} of {}", launch.index, vmem ? "VMEM" : "SMEM",
          format_bytes(vmem ? verdict.vmem_capacity : target_.smem_bytes),
          vmem ? verdict.capacity_source : fmt::format("{} SMEM", target_.name));
      return ev;
    }
    const Estimate e = estimate_launch(launch, a.choices, r, target_);
    ev.time_us += e.time_us;
    flops += static_cast<double>(e.flops);
    ev.hbm_bytes += e.hbm_bytes;
    ev.vmem_bytes = std::max(ev.vmem_bytes, e.vmem_bytes);
    if (e.time_us > slowest) {
      slowest = e.time_us;
      ev.bound = e.bound;
      ev.fraction_of_peak = e.fraction_of_peak;
    }
  }
  ev.legal = true;
  ev.tflops = ev.time_us > 0 ? flops / ev.time_us / 1e6 : 0;
  return ev;
}

namespace {

// A config that needs more VMEM than the default scoped limit says so: the target's VMEM.
void set_vmem_limit(Candidate& cand, const Evaluation& ev, const TargetInfo& target) {
  if (ev.vmem_bytes > target.default_scoped_vmem_bytes) {
    cand.config.vmem_limit_bytes = target.vmem_bytes;
  }
}

}  // namespace

CallResult KernelSearch::search(const passes::HostValues& call,
                                const SearchOptions& options) const {
  CallResult result = explore(call, options);
  if (result.best) set_vmem_limit(*result.best, result.best_evaluation, target_);
  for (auto& [cand, ev] : result.top) set_vmem_limit(cand, ev, target_);
  for (auto& [text, best] : result.best_per_strategy)
    set_vmem_limit(best.first, best.second, target_);
  return result;
}

CallResult KernelSearch::explore(const passes::HostValues& call,
                                 const SearchOptions& options) const {
  const std::vector<Coordinate> coords = coordinates(call);
  CallResult result;
  size_t total = 1;
  for (const Coordinate& c : coords) {
    total = c.size() == 0 ? 0
            : total > std::numeric_limits<size_t>::max() / c.size()
                ? std::numeric_limits<size_t>::max()
                : total * c.size();
  }
  result.space_size = total;
  result.coordinates = stats(coords);
  if (total == 0) return result;
  result.exhaustive = total <= options.exhaustive_limit;

  const auto start = std::chrono::steady_clock::now();
  std::set<std::string> seen;
  std::vector<size_t> best_point;
  const size_t planned = std::min(total, options.exhaustive_limit);
  size_t visited = 0;
  // Points with every grid in its written order whose launches each have at most one own axis
  // of more than one step: any other order gives the same schedule, known without accounting.
  std::set<std::vector<size_t>> order_free;
  const auto written_order = [&](std::vector<size_t> point) {
    for (size_t i = 0; i < coords.size(); ++i) {
      if (coords[i].kind == Coordinate::Kind::kOrder) point[i] = 0;
    }
    return point;
  };
  // Judges one point; false once the budget is spent.
  const auto visit = [&](const std::vector<size_t>& point) {
    if (options.progress && ++visited % 256 == 0) {
      options.progress(visited, std::max(planned, visited));
    }
    if (options.budget_seconds > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
            options.budget_seconds) {
      result.budget_exhausted = true;
      return false;
    }
    const std::vector<size_t> base = written_order(point);
    const bool reordered = base != point;
    if (reordered && order_free.contains(base)) {
      for (size_t i = 0; i < point.size(); ++i) ++result.coordinates[i].values[point[i]].repeated;
      return true;
    }
    Candidate cand = candidate(coords, point);
    const std::vector<Accounted> launches = account(cand, call);
    if (!reordered && !orders_matter(launches)) order_free.insert(base);
    const std::string key = schedule_key(cand, launches);
    if (!key.empty() && !seen.insert(key).second) {
      for (size_t i = 0; i < point.size(); ++i) ++result.coordinates[i].values[point[i]].repeated;
      return true;
    }
    ++result.evaluated;
    Evaluation ev = evaluate(cand, launches);
    for (size_t i = 0; i < point.size(); ++i) {
      ValueStats& value = result.coordinates[i].values[point[i]];
      ev.legal ? ++value.legal : ++value.refused[ev.reason];
    }
    if (!ev.legal) {
      ++result.pruned;
      ++result.reasons[ev.reason];
      return true;
    }
    if (options.keep_top > 0) {
      auto later = std::upper_bound(result.top.begin(), result.top.end(), ev.time_us,
                                    [](double time, const std::pair<Candidate, Evaluation>& kept) {
                                      return time < kept.second.time_us;
                                    });
      if (static_cast<size_t>(later - result.top.begin()) < options.keep_top) {
        result.top.insert(later, {cand, ev});
        if (result.top.size() > options.keep_top) result.top.pop_back();
      }
    }
    if (!result.best || ev.time_us < result.best_evaluation.time_us) {
      result.best = cand;
      result.best_evaluation = ev;
      best_point = point;
    }
    auto [it, inserted] =
        result.best_per_strategy.try_emplace(strategy_text(cand.strategies), cand, ev);
    if (!inserted && ev.time_us < it->second.second.time_us) it->second = {cand, ev};
    return true;
  };

  std::vector<size_t> point(coords.size(), 0);
  if (result.exhaustive) {
    // Every point, the last coordinate fastest.
    for (size_t n = 0; n < total; ++n) {
      if (!visit(point)) return result;
      for (size_t i = coords.size(); i-- > 0;) {
        if (++point[i] < coords[i].size()) break;
        point[i] = 0;
      }
    }
    return result;
  }
  std::mt19937_64 rng(options.seed);
  for (size_t n = 0; n < options.exhaustive_limit; ++n) {
    for (size_t i = 0; i < coords.size(); ++i) point[i] = rng() % coords[i].size();
    if (!visit(point)) return result;
  }
  // Coordinate descent from the best sample.
  for (bool improved = !best_point.empty(); improved;) {
    improved = false;
    for (size_t i = 0; i < coords.size(); ++i) {
      for (size_t v = 0; v < coords[i].size(); ++v) {
        std::vector<size_t> next = best_point;
        next[i] = v;
        const double before = result.best_evaluation.time_us;
        if (!visit(next)) return result;
        improved = improved || result.best_evaluation.time_us < before;
      }
    }
  }
  return result;
}

}  // namespace helionc::autotune
