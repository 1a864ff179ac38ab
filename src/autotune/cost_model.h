// The analytical TPU cost model (issue 10): how long one launch (one `pl.pallas_call`) of the
// generated module takes on a target, for concrete shapes and one config, from the resources
// passes::account_launch computes and the figures of configs/targets/*.yaml (no figure lives
// in this code). `--estimate` prints it; the search ranks configs with it.
//
// The launch runs its grid steps on one TensorCore, or on both cores of a megacore chip (v4,
// v5p), which split the launch's own ("parallel") grid axes. Per step, the MXU, the VPU and
// the EUP work in parallel (one VLIW bundle feeds all three), so a step computes for the
// longest of the three; Pallas's pipeline copies the next step's blocks while this step
// computes, so a step lasts max(compute, DMA) plus the fixed step overhead. Before the first
// step the first blocks (for `unroll` the whole resident axis) must arrive, and after the last
// one the last output blocks must leave: pipeline fill and drain. Streaming strategies
// (`emit_pipeline`, `fori_loop`) run an inner pipeline in every grid step: a fill per grid
// step, then per iteration max(compute, DMA) with two or more buffers (compute + DMA with one)
// plus that strategy's iteration overhead.
//
// - MXU time: each product's flops at the bf16 peak per core times the dtype's rate
//   (mxu_f32_rate, mxu_int8_rate) and the sustained fraction of the peak
//   (mxu_sustained_fraction), divided by its tile efficiency: the contracted dimension
//   fills the MXU's rows and the result's columns its columns in whole tiles (128 on v4/v5,
//   256 on v6e/v7x: a 128-wide block uses half of a 256-wide MXU), and the result's rows
//   stream through in groups of the dtype's sublane packing, no fewer than the MXU's rows
//   (loading the stationary operand takes that long).
// - VPU time: the vector flops (all flops but the products' and the divisions') at
//   vpu_gelem_per_s; EUP time: the transcendentals and the divisions (a reciprocal each) at
//   eup_gelem_per_s. tests/bench/test_model_counts.py checks both per grid step against the
//   Mosaic counts of the kernel profile.
// - HBM time: the bytes each operand moves (launch_resources.h) at the bandwidth per core.
//
// Known approximations: element work inside an inner loop that the loop's dimension does not
// tile (an accumulator's rescaling) is counted once per outer block, as pl.CostEstimate counts
// it; compute is spread evenly over the steps; a launch's streaming loops are summed, not
// nested.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "autotune/targets.h"
#include "passes/launch_plan.h"
#include "passes/launch_resources.h"

namespace helionc::autotune {

// Written next to predictions so a config tuned by an older model can be told apart.
inline constexpr int kCostModelVersion = 1;

// What a launch's time is mostly spent on. kLaunchOverhead: the fixed cost of the call itself
// (launch_overhead_us), which is all a small kernel's time. kNone: nothing, as a kernel
// without a device loop launches nothing (search.h's Evaluation of such a kernel).
enum class Bound { kMxu, kVpu, kEup, kHbm, kStepOverhead, kVmemFill, kLaunchOverhead, kNone };
// "MXU", "VPU", "EUP", "HBM", "step overhead", "VMEM fill", "launch overhead", "none"
std::string_view bound_name(Bound bound);

struct TimeTerm {
  std::string name;  // "launch_overhead_us", ...
  double us = 0;
};

struct Estimate {
  double time_us = 0;           // the sum of `terms`
  double tflops = 0;            // all flops over time_us
  double fraction_of_peak = 0;  // tflops over the bf16 peak of the cores the launch runs on
  Bound bound = Bound::kMxu;
  int64_t flops = 0;
  int64_t mxu_flops = 0;
  int64_t transcendentals = 0;
  int64_t divisions = 0;  // of `flops`, run on the EUP
  int64_t hbm_bytes = 0;
  int64_t vmem_bytes = 0;
  int cores = 1;           // TensorCores the launch runs on
  int64_t core_steps = 0;  // grid steps one core runs
  // The parts that add up to time_us, in a fixed order.
  std::vector<TimeTerm> terms;
  // Each unit's busy time over the launch on one core (they overlap; the largest of these, of
  // the step overhead, of the pipeline fill and of the launch overhead is `bound`).
  double mxu_us = 0, vpu_us = 0, eup_us = 0, hbm_us = 0;
};

// The model's prediction for `launch` run with `choices`, whose resources are `resources`.
Estimate estimate_launch(const passes::Launch& launch, const passes::LaunchChoices& choices,
                         const passes::LaunchResources& resources, const TargetInfo& target);

// How well one product of this shape fills the target's MXU (0..1].
double mxu_efficiency(const passes::ProductResources& product, const TargetInfo& target);

}  // namespace helionc::autotune
