// The cost model (autotune/cost_model.h) on kernels compiled from source: each term against
// the figure computed by hand from the target files, and the model's verdicts in kind (what
// bounds a launch, which strategy wins). The published calibration is tests/bench/calibrate.py.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <tuple>

#include "autotune/cost_model.h"
#include "autotune/legality.h"
#include "autotune/targets.h"
#include "resources/compiled_kernel.h"

namespace helionc {
namespace {

using autotune::Bound;
using passes::LoopStrategy;

double term(const autotune::Estimate& e, const std::string& name) {
  for (const autotune::TimeTerm& t : e.terms) {
    if (t.name == name) return t.us;
  }
  FAIL("no term " << name);
  return 0;
}

struct Run {
  passes::LaunchResources resources;
  autotune::Estimate estimate;
};

Run run(const Compiled& c, const passes::HostValues& values, std::vector<int64_t> blocks,
        LoopStrategy strategy, const autotune::TargetInfo& t, int64_t buffers = 2) {
  passes::LaunchChoices choices;
  for (int64_t b : blocks) choices.block_sizes.emplace_back(b);
  choices.strategies = {strategy};
  choices.buffer_counts = {buffers};
  Run r;
  r.resources = account(c, values, choices);
  r.estimate = autotune::estimate_launch(c.launch(), choices, r.resources, t);
  return r;
}

passes::HostValues square(const Compiled& c, int64_t n,
                          ir::ScalarType dtype = ir::ScalarType::kBFloat16) {
  return c.values({{{n, n}, dtype}, {{n, n}, dtype}});
}

TEST_CASE("cost model: a compute-bound bf16 matmul on v5e, term by term") {
  const Compiled mm = compile(kMatmul);
  const autotune::TargetInfo& v5e = target("tpu-v5e");
  const Run r = run(mm, square(mm, 4096), {512, 1024, 1024}, LoopStrategy::kGrid, v5e);
  const autotune::Estimate& e = r.estimate;
  // grid (8, 4, 4) on the one core of a v5e
  CHECK(e.cores == 1);
  CHECK(e.core_steps == 128);
  // MXU: 2 * 4096^3 flops at 197 TFLOP/s times the sustained fraction; the 512x1024x1024
  // blocks fill the 128x128 MXUs exactly.
  const double flops = 2.0 * 4096 * 4096 * 4096;
  CHECK(e.mxu_us == Approx(flops / (v5e.bf16_peak_tflops * 1e6 * v5e.mxu_sustained_fraction)));
  CHECK(term(e, "compute_us") == Approx(e.mxu_us));
  // Fill: x's first (512, 1024) and y's first (1024, 1024) bf16 block; drain: out's last
  // (512, 1024) block; both at 820 GB/s.
  const double bytes_per_us = v5e.hbm_bandwidth_gb_s * 1e3;
  CHECK(term(e, "pipeline_fill_us") == Approx((1 << 20) * 3 / bytes_per_us));
  CHECK(term(e, "pipeline_drain_us") == Approx((1 << 20) / bytes_per_us));
  CHECK(term(e, "step_overhead_us") == Approx(128 * v5e.grid_step_overhead_us));
  // 3 MiB per step moves in 3.8 us, under the 5.6 us of MXU work: no DMA exposed.
  CHECK(term(e, "exposed_dma_us") == 0);
  double sum = 0;
  for (const autotune::TimeTerm& t : e.terms) sum += t.us;
  CHECK(e.time_us == Approx(sum));
  CHECK(e.bound == Bound::kMxu);
  CHECK(e.fraction_of_peak == Approx(e.tflops / v5e.bf16_peak_tflops));
}

TEST_CASE("cost model: small blocks are bound by the step overhead, then by HBM") {
  const Compiled mm = compile(kMatmul);
  const autotune::TargetInfo& v5e = target("tpu-v5e");
  const Run small = run(mm, square(mm, 4096), {128, 128, 128}, LoopStrategy::kGrid, v5e);
  CHECK(small.estimate.bound == Bound::kStepOverhead);
  CHECK(small.estimate.core_steps == 32 * 32 * 32);
  // 64 KiB per step at 820 GB/s is 0.08 us against 0.02 us of MXU work: the copy shows.
  CHECK(term(small.estimate, "exposed_dma_us") > 0);
  const Run big = run(mm, square(mm, 4096), {512, 1024, 1024}, LoopStrategy::kGrid, v5e);
  CHECK(big.estimate.time_us * 10 < small.estimate.time_us);
}

TEST_CASE("cost model: a small kernel is bound by its launch overhead, and says so") {
  const Compiled mm = compile(kMatmul);
  const autotune::TargetInfo& v5e = target("tpu-v5e");
  // 256^3 in one step: 33.6 MFLOP is 0.17 us of MXU work and 384 KiB 0.5 us of copies, against
  // the 115 us the matmul guide's host-timed calls cost whatever their size.
  const Run r = run(mm, square(mm, 256), {256, 256, 256}, LoopStrategy::kGrid, v5e);
  CHECK(r.estimate.bound == Bound::kLaunchOverhead);
  CHECK(autotune::bound_name(r.estimate.bound) == "launch overhead");
  double largest = 0;
  std::string name;
  for (const autotune::TimeTerm& t : r.estimate.terms) {
    if (t.us > largest) std::tie(largest, name) = std::tie(t.us, t.name);
  }
  CHECK(name == "launch_overhead_us");
  CHECK(largest == v5e.launch_overhead_us);
  CHECK(r.estimate.hbm_us < largest);
  // At 4096^3 with the same blocks the steps' work dominates again.
  const Run big = run(mm, square(mm, 4096), {256, 256, 256}, LoopStrategy::kGrid, v5e);
  CHECK(big.estimate.bound != Bound::kLaunchOverhead);
}

TEST_CASE("cost model: MXU tile efficiency by generation, and dtype rates") {
  passes::ProductResources p;
  p.rows = 128;
  p.cols = 128;
  p.depth = 128;
  // 128 x 128 fills a v5e MXU; a v7x MXU is 256 x 256: half the depth, half the columns, and
  // 128 rows stream in half the time its stationary operand takes to load.
  CHECK(autotune::mxu_efficiency(p, target("tpu-v5e")) == Approx(1.0));
  CHECK(autotune::mxu_efficiency(p, target("tpu-v7x")) == Approx(0.125));
  p.rows = 256;
  p.cols = 256;
  p.depth = 256;
  CHECK(autotune::mxu_efficiency(p, target("tpu-v7x")) == Approx(1.0));
  // A partial tile: 200 of 256 columns.
  p.cols = 200;
  CHECK(autotune::mxu_efficiency(p, target("tpu-v7x")) == Approx(200.0 / 256));
  // int8 runs at twice the bf16 rate on v5e (jax's tpu_info), so its MXU time halves.
  const Compiled mm = compile(kMatmul);
  const autotune::TargetInfo& v5e = target("tpu-v5e");
  const Run bf16 = run(mm, square(mm, 2048), {512, 512, 512}, LoopStrategy::kGrid, v5e);
  const Run int8 =
      run(mm, square(mm, 2048, ir::ScalarType::kInt8), {512, 512, 512}, LoopStrategy::kGrid, v5e);
  CHECK(int8.estimate.mxu_us == Approx(bf16.estimate.mxu_us / v5e.mxu_int8_rate));
}

TEST_CASE("cost model: megacore splits the parallel axes over both cores") {
  const Compiled mm = compile(kMatmul);
  const Run v5p =
      run(mm, square(mm, 4096), {512, 1024, 1024}, LoopStrategy::kGrid, target("tpu-v5p"));
  // grid (8, 4) parallel x 4 arbitrary: 16 parallel steps per core, each with its 4 k steps.
  CHECK(v5p.estimate.cores == 2);
  CHECK(v5p.estimate.core_steps == 16 * 4);
  // v7x's two cores are two devices: a launch runs on one.
  const Run v7x =
      run(mm, square(mm, 4096), {512, 1024, 1024}, LoopStrategy::kGrid, target("tpu-v7x"));
  CHECK(v7x.estimate.cores == 1);
  CHECK(v7x.estimate.core_steps == 128);
}

TEST_CASE("cost model: unroll fetches the resident axis before the first step") {
  const Compiled mm = compile(kMatmul);
  const autotune::TargetInfo& v5e = target("tpu-v5e");
  const Run unroll = run(mm, square(mm, 4096), {512, 512, 512}, LoopStrategy::kUnroll, v5e);
  const Run grid = run(mm, square(mm, 4096), {512, 512, 512}, LoopStrategy::kGrid, v5e);
  // unroll: x's (512, 4096) and y's (4096, 512) bf16 blocks, whole along k, come first.
  const double bytes_per_us = v5e.hbm_bandwidth_gb_s * 1e3;
  CHECK(term(unroll.estimate, "pipeline_fill_us") == Approx(2 * 512 * 4096 * 2 / bytes_per_us));
  CHECK(term(unroll.estimate, "pipeline_fill_us") > term(grid.estimate, "pipeline_fill_us"));
  // ... and runs 8x fewer grid steps (k is not on the grid).
  CHECK(unroll.estimate.core_steps * 8 == grid.estimate.core_steps);
}

TEST_CASE("cost model: streaming loops pay a fill per grid step and an overhead per iteration") {
  const Compiled mm = compile(kMatmul);
  const autotune::TargetInfo& v5e = target("tpu-v5e");
  const Run pipeline = run(mm, square(mm, 4096), {512, 512, 512}, LoopStrategy::kEmitPipeline, v5e);
  const autotune::Estimate& e = pipeline.estimate;
  // grid (8, 8); 8 iterations of k in each step.
  CHECK(e.core_steps == 64);
  CHECK(term(e, "inner_overhead_us") == Approx(64 * 8 * v5e.emit_pipeline_step_overhead_us));
  // The first (512, 512) blocks of x and y, per grid step.
  const double bytes_per_us = v5e.hbm_bandwidth_gb_s * 1e3;
  CHECK(term(e, "inner_fill_us") == Approx(64 * 2 * 512 * 512 * 2 / bytes_per_us));
  // With one buffer a fori_loop cannot copy while it computes: every copy after the first is
  // exposed; with two the copies hide under the MXU work.
  const Run one = run(mm, square(mm, 4096), {512, 512, 512}, LoopStrategy::kForiLoop, v5e, 1);
  const Run two = run(mm, square(mm, 4096), {512, 512, 512}, LoopStrategy::kForiLoop, v5e, 2);
  CHECK(term(two.estimate, "inner_exposed_dma_us") == 0);
  CHECK(term(one.estimate, "inner_exposed_dma_us") ==
        Approx(64 * 7 * 2 * 512 * 512 * 2 / bytes_per_us));
  CHECK(one.estimate.time_us > two.estimate.time_us);
}

// Flash attention in kind: short sequences favour `unroll` (no inner pipeline), long ones make
// it run out of VMEM while the streaming strategies still fit.
const char* kAttention = R"(@helion.kernel(static_shapes=True)
def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    m = q.size(0)
    n = k.size(0)
    out = torch.empty_like(q)
    for tile_m in hl.tile(m):
        m_i = hl.full([tile_m], float("-inf"), dtype=torch.float32)
        l_i = torch.full_like(m_i, 1.0)
        qi = q[tile_m, :]
        acc = torch.zeros_like(qi, dtype=torch.float32)
        for tile_n in hl.tile(n):
            kj = k[tile_n, :]
            s = hl.dot(qi, kj.transpose(0, 1), out_dtype=torch.float32)
            m_ij = torch.maximum(m_i, torch.amax(s, -1))
            p = torch.exp2(s - m_ij[:, None])
            alpha = torch.exp2(m_i - m_ij)
            l_i = l_i * alpha + torch.sum(p, -1)
            acc = acc * alpha[:, None]
            acc = torch.addmm(acc, p.to(v.dtype), v[tile_n, :])
            m_i = m_ij
        out[tile_m, :] = (acc / l_i[:, None]).to(out.dtype)
    return out
)";

TEST_CASE("cost model: attention, unroll wins short sequences and does not fit long ones") {
  const Compiled at = compile(kAttention);
  const autotune::TargetInfo& v7x = target("tpu-v7x");
  const auto values = [&](int64_t s) {
    const passes::ConcreteTensor t = {{s, 128}, ir::ScalarType::kBFloat16};
    return at.values({t, t, t});
  };
  const auto time = [&](int64_t s, LoopStrategy strategy) {
    return run(at, values(s), {512, 512}, strategy, v7x).estimate.time_us;
  };
  const double unroll = time(2048, LoopStrategy::kUnroll);
  CHECK(unroll < time(2048, LoopStrategy::kEmitPipeline));
  CHECK(unroll < time(2048, LoopStrategy::kForiLoop));
  CHECK(unroll < time(2048, LoopStrategy::kGrid));
  // At 256 Ki keys, K and V resident are 2 x 64 MiB double-buffered: over v7x's 64 MiB.
  const int64_t long_s = 256 * 1024;
  const Run resident = run(at, values(long_s), {512, 512}, LoopStrategy::kUnroll, v7x);
  CHECK_FALSE(autotune::judge_launch(resident.resources, v7x, std::nullopt).fits);
  const Run streamed = run(at, values(long_s), {512, 512}, LoopStrategy::kEmitPipeline, v7x);
  CHECK(autotune::judge_launch(streamed.resources, v7x, std::nullopt).fits);
  // The exps are the EUP's work, counted per element of the scores.
  CHECK(streamed.estimate.eup_us > 0);
}

}  // namespace
}  // namespace helionc
