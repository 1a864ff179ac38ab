#include "autotune/cost_model.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace helionc::autotune {

namespace {

using passes::LoopStrategy;
using passes::OperandResources;

int64_t round_up(int64_t value, int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

int64_t elements(const std::vector<int64_t>& block) {
  int64_t n = 1;
  for (int64_t d : block) n *= d;
  return n;
}

// The target's rates, per TensorCore and per microsecond.
struct Rates {
  double bf16_flops = 0;
  double hbm_bytes = 0;
  double vpu = 0;
  double eup = 0;

  explicit Rates(const TargetInfo& t)
      : bf16_flops(t.bf16_peak_tflops * 1e6 / t.cores_per_chip),
        hbm_bytes(t.hbm_bandwidth_gb_s * 1e3 / t.cores_per_chip),
        vpu(t.vpu_gelem_per_s * 1e3),
        eup(t.eup_gelem_per_s * 1e3) {}
};

double mxu_rate(ir::ScalarType dtype, const TargetInfo& target) {
  switch (dtype) {
    case ir::ScalarType::kInt8:
    case ir::ScalarType::kUInt8:
      return target.mxu_int8_rate;
    case ir::ScalarType::kFloat32:
    case ir::ScalarType::kInt32:
      return target.mxu_f32_rate;
    default:
      return 1.0;
  }
}

// The grid steps one core runs: megacore splits the launch's own (parallel) axes over the
// chip's cores; the inner loops' grid axes ("arbitrary") stay in order on each core.
struct CoreSplit {
  int cores = 1;
  int64_t steps = 1;
  double share = 1;  // of the launch's work
};

CoreSplit split(const passes::Launch& launch, const passes::LaunchChoices& choices,
                const passes::LaunchResources& r, const TargetInfo& target) {
  CoreSplit s;
  int64_t parallel = 1, arbitrary = 1;
  for (size_t g = 0; g < launch.grid.size(); ++g) {
    const int inner = launch.grid[g].inner_loop;
    if (inner < 0) {
      parallel *= r.dim_steps[g];
    } else if (choices.strategies[static_cast<size_t>(inner)] == LoopStrategy::kGrid) {
      arbitrary *= r.dim_steps[g];
    }
  }
  s.steps = std::max<int64_t>(r.grid_steps, 1);
  if (target.megacore && target.cores_per_chip > 1 && parallel > 1) {
    s.cores = target.cores_per_chip;
    s.steps = (parallel + s.cores - 1) / s.cores * arbitrary;
    s.share = static_cast<double>(s.steps) / static_cast<double>(r.grid_steps);
  }
  return s;
}

// Iterations per grid step of the streaming loops, their overhead each, and their buffers.
struct Streaming {
  int64_t iterations = 0;
  double overhead_us = 0;  // per iteration
  int64_t buffers = passes::kDefaultBufferCount;
};

Streaming streaming(const passes::Launch& launch, const passes::LaunchChoices& choices,
                    const passes::LaunchResources& r, const TargetInfo& target) {
  Streaming s;
  for (size_t g = 0; g < launch.grid.size(); ++g) {
    const int inner = launch.grid[g].inner_loop;
    if (inner < 0) continue;
    const LoopStrategy strategy = choices.strategies[static_cast<size_t>(inner)];
    if (strategy != LoopStrategy::kEmitPipeline && strategy != LoopStrategy::kForiLoop) continue;
    s.iterations += r.dim_steps[g];
    s.overhead_us = strategy == LoopStrategy::kEmitPipeline ? target.emit_pipeline_step_overhead_us
                                                            : target.fori_loop_step_overhead_us;
  }
  for (const OperandResources& o : r.operands) {
    if (o.kind == OperandResources::Kind::kStream) s.buffers = std::min(s.buffers, o.buffers);
  }
  return s;
}

// Bytes moved by the outer pipeline: the first blocks in (fill), the last blocks out (drain),
// what moves between steps, and the streamed operands' bytes (moved by the inner loops).
struct Traffic {
  int64_t fill = 0, drain = 0, between = 0, streamed = 0, total = 0;
};

Traffic traffic(const passes::LaunchResources& r) {
  Traffic t;
  for (const OperandResources& o : r.operands) {
    const bool moves =
        o.kind == OperandResources::Kind::kInput || o.kind == OperandResources::Kind::kOutput;
    if (!moves) continue;
    t.total += o.hbm_bytes;
    if (o.memory == "SMEM") {
      t.fill += o.hbm_bytes;  // copied whole before the first step
      continue;
    }
    if (o.memory == "ANY") {
      t.streamed += o.hbm_bytes;  // streamed by the kernel (or aliased, moving nothing)
      continue;
    }
    const int64_t first = std::min(o.hbm_bytes, elements(o.block) * (ir::dtype_bits(o.dtype) / 8));
    (o.kind == OperandResources::Kind::kInput ? t.fill : t.drain) += first;
    t.between += o.hbm_bytes - first;
  }
  return t;
}

Bound largest(const std::array<std::pair<Bound, double>, 7>& candidates) {
  Bound best = candidates[0].first;
  double most = -1;
  for (const auto& [bound, us] : candidates) {
    if (us > most) {
      best = bound;
      most = us;
    }
  }
  return best;
}

}  // namespace

std::string_view bound_name(Bound bound) {
  switch (bound) {
    case Bound::kMxu:
      return "MXU";
    case Bound::kVpu:
      return "VPU";
    case Bound::kEup:
      return "EUP";
    case Bound::kHbm:
      return "HBM";
    case Bound::kStepOverhead:
      return "step overhead";
    case Bound::kVmemFill:
      return "VMEM fill";
    case Bound::kLaunchOverhead:
      return "launch overhead";
    case Bound::kNone:
      return "none";
  }
  return "?";
}

double mxu_efficiency(const passes::ProductResources& p, const TargetInfo& target) {
  const int64_t sublanes = 8 * 32 / std::max(ir::dtype_bits(p.dtype), 8);
  const auto fraction = [](int64_t used, int64_t padded) {
    return static_cast<double>(used) / static_cast<double>(padded);
  };
  const double depth = fraction(p.depth, round_up(p.depth, target.mxu_rows));
  const double cols = fraction(p.cols, round_up(p.cols, target.mxu_cols));
  const double rows =
      fraction(p.rows, std::max<int64_t>(round_up(p.rows, sublanes), target.mxu_rows));
  return depth * cols * rows;
}

Estimate estimate_launch(const passes::Launch& launch, const passes::LaunchChoices& choices,
                         const passes::LaunchResources& r, const TargetInfo& target) {
  const Rates rate(target);
  const CoreSplit core = split(launch, choices, r, target);
  const Streaming stream = streaming(launch, choices, r, target);
  const Traffic bytes = traffic(r);

  Estimate e;
  e.flops = r.flops;
  e.mxu_flops = r.mxu_flops;
  e.transcendentals = r.transcendentals;
  e.divisions = r.divisions;
  e.hbm_bytes = r.hbm_bytes;
  e.vmem_bytes = r.vmem_bytes;
  e.cores = core.cores;
  e.core_steps = core.steps;

  // Each unit's busy time on one core.
  for (const passes::ProductResources& p : r.products) {
    e.mxu_us += static_cast<double>(p.flops) * core.share /
                (rate.bf16_flops * target.mxu_sustained_fraction * mxu_rate(p.dtype, target) *
                 mxu_efficiency(p, target));
  }
  e.vpu_us = static_cast<double>(std::max<int64_t>(r.flops - r.mxu_flops - r.divisions, 0)) *
             core.share / rate.vpu;
  e.eup_us = static_cast<double>(r.transcendentals + r.divisions) * core.share / rate.eup;
  e.hbm_us = static_cast<double>(bytes.total) * core.share / rate.hbm_bytes;

  const auto steps = static_cast<double>(core.steps);
  const double compute_us = std::max({e.mxu_us, e.vpu_us, e.eup_us});
  const double compute_step = compute_us / steps;
  // The outer pipeline's copies between steps, overlapped with the next step's work.
  const double dma_step = core.steps > 1 ? static_cast<double>(bytes.between) * core.share /
                                               rate.hbm_bytes / static_cast<double>(core.steps - 1)
                                         : 0;
  // Streaming loops: per grid step a fill, then each iteration's copy against its compute.
  double inner_fill = 0, inner_overhead = 0, inner_exposed = 0;
  if (stream.iterations > 0) {
    const auto n = static_cast<double>(stream.iterations);
    const double dma_iter =
        static_cast<double>(bytes.streamed) * core.share / rate.hbm_bytes / steps / n;
    const double compute_iter = compute_step / n;
    inner_fill = dma_iter;
    inner_overhead = n * stream.overhead_us;
    inner_exposed =
        stream.buffers >= 2 ? (n - 1) * std::max(0.0, dma_iter - compute_iter) : (n - 1) * dma_iter;
  }
  const double step_busy = compute_step + inner_fill + inner_overhead + inner_exposed;
  const double exposed_dma = (steps - 1) * std::max(0.0, dma_step - step_busy);

  const double fill = static_cast<double>(bytes.fill) / rate.hbm_bytes;
  const double drain = static_cast<double>(bytes.drain) / rate.hbm_bytes;
  e.terms = {
      {"launch_overhead_us", target.launch_overhead_us},
      {"pipeline_fill_us", fill},
      {"pipeline_drain_us", drain},
      {"step_overhead_us", steps * target.grid_step_overhead_us},
      {"compute_us", compute_us},
      {"exposed_dma_us", exposed_dma},
      {"inner_fill_us", steps * inner_fill},
      {"inner_overhead_us", steps * inner_overhead},
      {"inner_exposed_dma_us", steps * inner_exposed},
  };
  for (const TimeTerm& term : e.terms) e.time_us += term.us;

  e.tflops = static_cast<double>(r.flops) / e.time_us / 1e6;
  e.fraction_of_peak = e.tflops * 1e6 / (rate.bf16_flops * core.cores);
  e.bound = largest({{
      {Bound::kMxu, e.mxu_us},
      {Bound::kVpu, e.vpu_us},
      {Bound::kEup, e.eup_us},
      {Bound::kHbm, e.hbm_us},
      {Bound::kStepOverhead, steps * (target.grid_step_overhead_us + inner_overhead)},
      {Bound::kVmemFill, fill + drain + steps * inner_fill},
      {Bound::kLaunchOverhead, target.launch_overhead_us},
  }});
  return e;
}

}  // namespace helionc::autotune
