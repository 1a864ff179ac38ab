// Resource accounting (passes/launch_resources.h) and the legality decision
// (autotune/legality.h) on kernels compiled from source, against figures computed by hand.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "autotune/legality.h"
#include "autotune/targets.h"
#include "frontend/lowering_fixture.h"
#include "passes/host_values.h"
#include "passes/launch_resources.h"
#include "passes/pipeline.h"
#include "resources/compiled_kernel.h"

namespace helionc {
namespace {

using passes::LoopStrategy;

// A row softmax: one launch, the row kept whole (`x[tile_m, :]`), a 1-D tile elsewhere.
const char* kSoftmax = R"(@helion.kernel()
def softmax(x: torch.Tensor) -> torch.Tensor:
    n, _m = x.size()
    out = torch.empty_like(x)
    for tile_n in hl.tile(n):
        values = x[tile_n, :]
        amax = torch.amax(values, dim=1, keepdim=True)
        exp = torch.exp(values - amax)
        out[tile_n, :] = exp / torch.sum(exp, dim=1, keepdim=True)
    return out
)";

const passes::OperandResources& operand(const passes::LaunchResources& r, const std::string& name,
                                        passes::OperandResources::Kind kind) {
  for (const auto& o : r.operands) {
    if (o.name == name && o.kind == kind) return o;
  }
  FAIL("no operand " << name);
  return r.operands.front();
}

using Kind = passes::OperandResources::Kind;
const passes::ConcreteTensor kBf16Square = {{1024, 1024}, ir::ScalarType::kBFloat16};

TEST_CASE("matmul 1024x1024x1024 bf16, blocks 128/128/256, k as the last grid axis") {
  const Compiled mm = compile(kMatmul);
  const auto values = mm.values({kBf16Square, kBf16Square});
  passes::LaunchChoices choices;
  choices.block_sizes = {128, 128, 256};
  choices.strategies = {LoopStrategy::kGrid};
  const passes::LaunchResources r = account(mm, values, choices);

  // grid (m/128, n/128, k/256) = (8, 8, 4)
  CHECK(r.grid == std::vector<int64_t>{8, 8, 4});
  CHECK(r.grid_names == std::vector<std::string>{"tile_m", "tile_n", "tile_k"});
  CHECK(r.grid_steps == 256);
  // VMEM, double-buffered blocks: x (128, 256) bf16 = 64 KiB x 2; y (256, 128) = 64 KiB x 2;
  // out (128, 128) bf16 = 32 KiB x 2; the f32 accumulator (128, 128) once = 64 KiB.
  CHECK(operand(r, "x", Kind::kInput).vmem_bytes == 128 * KiB);
  CHECK(operand(r, "y", Kind::kInput).vmem_bytes == 128 * KiB);
  CHECK(operand(r, "out", Kind::kOutput).vmem_bytes == 64 * KiB);
  CHECK(operand(r, "acc", Kind::kScratch).vmem_bytes == 64 * KiB);
  CHECK(r.vmem_bytes == 384 * KiB);
  // HBM: x's block index (i, kk) changes at every step, and it is read again for each of the 8
  // values of j: 8 x 2 MiB; y's (kk, j) likewise for each i: 8 x 2 MiB; out's (i, j) stays
  // put while kk runs (the last axis), so it is written once: 2 MiB. 34 MiB in all.
  CHECK(operand(r, "x", Kind::kInput).hbm_bytes == 16 * MiB);
  CHECK(operand(r, "y", Kind::kInput).hbm_bytes == 16 * MiB);
  CHECK(operand(r, "out", Kind::kOutput).hbm_bytes == 2 * MiB);
  CHECK(r.hbm_bytes == 34 * MiB);
  // The plan's terms are 1 x [tile_m, tile_n] (the accumulator's add, at each of the 4 steps
  // of the k loop it runs in; creating the zeros and casting cost nothing) and
  // 2 x [tile_m, tile_n, tile_k] (the products): 4 * 1024^2 + 2 * 1024^3.
  CHECK(r.flops == (int64_t{1} << 22) + 2 * (int64_t{1} << 30));
  CHECK(r.transcendentals == 0);
  // The products are the MXU's work: one term, with one product's blocks (tile_m x tile_n
  // result, tile_k contracted) and the operands' dtype, which the IR leaves to the call.
  REQUIRE(r.products.size() == 1);
  CHECK(r.products[0].flops == 2 * (int64_t{1} << 30));
  CHECK(r.products[0].rows == 128);
  CHECK(r.products[0].cols == 128);
  CHECK(r.products[0].depth == 256);
  CHECK(r.products[0].dtype == ir::ScalarType::kBFloat16);
  CHECK(r.mxu_flops == r.products[0].flops);
}

TEST_CASE("matmul, the same blocks with k unrolled: x and y resident along k") {
  const Compiled mm = compile(kMatmul);
  const auto values = mm.values({kBf16Square, kBf16Square});
  passes::LaunchChoices choices;
  choices.block_sizes = {128, 128, 256};
  choices.strategies = {LoopStrategy::kUnroll};
  const passes::LaunchResources r = account(mm, values, choices);
  CHECK(r.grid == std::vector<int64_t>{8, 8});
  // x (128, cdiv(1024, 256) * 256 = 1024) bf16 = 256 KiB x 2, y likewise, out 32 KiB x 2;
  // no scratch (the accumulator is a value of one kernel invocation).
  CHECK(operand(r, "x", Kind::kInput).block == std::vector<int64_t>{128, 1024});
  CHECK(r.vmem_bytes == 2 * 512 * KiB + 64 * KiB);
  // x's block (i, 0) stays put while j runs: read once, 2 MiB; y's (0, j) changes with j, so
  // it is read again for each i: 8 x 2 MiB; out 2 MiB.
  CHECK(operand(r, "x", Kind::kInput).hbm_bytes == 2 * MiB);
  CHECK(operand(r, "y", Kind::kInput).hbm_bytes == 16 * MiB);
  CHECK(r.hbm_bytes == 20 * MiB);
}

// Split-k: the inner loop runs over the outer k tile's own block (`hl.tile(part.begin,
// part.end)`), so each outer step multiplies one slice of k, not the whole axis.
const char* kSplitK = R"(@helion.kernel(static_shapes=True)
def split_k(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    m, k = x.size()
    k2, n = y.size()
    out = torch.zeros([m, n], dtype=torch.float32, device=x.device)
    k_slice = hl.register_block_size(128, 4096)
    for tile_m, tile_n, part in hl.tile([m, n, k], block_size=[None, None, k_slice]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for tile_k in hl.tile(part.begin, part.end):
            acc = torch.addmm(acc, x[tile_m, tile_k], y[tile_k, tile_n])
        hl.atomic_add(out, [tile_m, tile_n], acc)
    return out
)";

TEST_CASE("split-k: a loop over the outer tile's block counts that block, not the axis") {
  const Compiled sk = compile(kSplitK);
  const auto values = sk.values({kBf16Square, kBf16Square});
  for (const LoopStrategy strategy :
       {LoopStrategy::kUnroll, LoopStrategy::kEmitPipeline, LoopStrategy::kForiLoop}) {
    for (const int64_t slice : {256, 512, 1024}) {
      passes::LaunchChoices choices;
      choices.block_sizes = {slice, 128, 128, 128};
      choices.strategies = {strategy};
      const passes::LaunchResources r = account(sk, values, choices);
      INFO(passes::loop_strategy_name(strategy) << ", slices of " << slice);
      // Every product of the 1024^3 matmul once, whatever the slicing.
      CHECK(r.mxu_flops == int64_t{2} * 1024 * 1024 * 1024);
      CHECK(r.dim_steps.back() == slice / 128);
    }
  }
}

TEST_CASE("matmul with k streamed by fori_loop: inputs in HBM, 3 VMEM slots each") {
  const Compiled mm = compile(kMatmul);
  if (!mm.launch().inner_loops.front().reason_against(LoopStrategy::kForiLoop).empty()) {
    FAIL("fori_loop does not apply: "
         << mm.launch().inner_loops.front().reason_against(LoopStrategy::kForiLoop));
  }
  const auto values = mm.values({kBf16Square, kBf16Square});
  passes::LaunchChoices choices;
  choices.block_sizes = {128, 128, 256};
  choices.strategies = {LoopStrategy::kForiLoop};
  choices.buffer_counts = {3};
  const passes::LaunchResources r = account(mm, values, choices);
  CHECK(r.grid == std::vector<int64_t>{8, 8});
  CHECK(operand(r, "x", Kind::kInput).memory == "ANY");
  CHECK(operand(r, "x", Kind::kInput).vmem_bytes == 0);
  // Slots: x (128, 256) bf16 = 64 KiB x 3, y (256, 128) = 64 KiB x 3; out 32 KiB x 2. The
  // carried accumulator is the fori_loop's carry, a value like unroll's: no scratch buffer.
  CHECK(operand(r, "x", Kind::kStream).vmem_bytes == 192 * KiB);
  CHECK(operand(r, "y", Kind::kStream).buffers == 3);
  CHECK(r.vmem_bytes == 2 * 192 * KiB + 64 * KiB);
  // Streamed over k at every outer step: x's rows i once per (i, j), all of k: 8 x 2 MiB.
  CHECK(operand(r, "x", Kind::kInput).hbm_bytes == 16 * MiB);
}

TEST_CASE("blocks follow _legal_block: defaults, rounding, whole dimensions") {
  const Compiled mm = compile(kMatmul);
  // m = 1000 (not a multiple of 8): a requested 100 rounds down to 96; n = 200 < 256 is kept
  // whole when 256 is asked for; k = 300 defaults to 300 (no config entry: min(512, 300)).
  const auto values =
      mm.values({{{1000, 300}, ir::ScalarType::kFloat32}, {{300, 200}, ir::ScalarType::kFloat32}});
  passes::LaunchChoices choices;
  choices.block_sizes = {100, 256};
  choices.strategies = {LoopStrategy::kGrid};
  const passes::LaunchResources r = account(mm, values, choices);
  CHECK(r.blocks == std::vector<int64_t>{96, 200, 300});
  CHECK(r.grid == std::vector<int64_t>{11, 1, 1});
  // The edge block of m is clipped: out moves exactly 1000 x 200 f32.
  CHECK(operand(r, "out", Kind::kOutput).hbm_bytes == 1000 * 200 * 4);
}

TEST_CASE("softmax: a whole row per block, transcendentals counted per element") {
  const Compiled sm = compile(kSoftmax);
  const auto values = sm.values({{{4096, 1024}, ir::ScalarType::kFloat32}});
  passes::LaunchChoices choices;  // the default block: 512 * 256 elements / 1024 = 128 rows
  const passes::LaunchResources r = account(sm, values, choices);
  CHECK(r.blocks == std::vector<int64_t>{128});
  CHECK(r.grid == std::vector<int64_t>{32});
  // x and out, 512 KiB blocks, twice each; `values` and `exp` are used again after their lane
  // reductions: one and a half 32-bit copies of their (128, 1024) shape (held_blocks.h).
  CHECK(r.reduction_bytes == 3 * 128 * 1024 * 4 / 2);
  CHECK(r.reduced_shapes == 1);
  CHECK(r.vmem_bytes == 2 * (2 * 128 * 1024 * 4) + r.reduction_bytes);
  CHECK(r.hbm_bytes == 2 * 4096 * 1024 * 4);
  CHECK(r.transcendentals == 4096 * 1024);
}

TEST_CASE("sizes the host code cannot know are reported, not guessed") {
  const Compiled mm = compile(kMatmul);
  const auto values = mm.values({kBf16Square, kBf16Square});
  std::map<int, passes::ConcreteTensor> none;
  const passes::HostValues unknown(mm.kernel(), none);
  passes::LaunchChoices choices;
  choices.strategies = {LoopStrategy::kGrid};
  auto r = passes::account_launch(mm.kernel(), mm.launch(), unknown, choices);
  REQUIRE_FALSE(r);
  CHECK(r.error() == "the extent of `tile_m` is not known at compile time");
}

TEST_CASE("legality: target VMEM, or vmem_limit_bytes when the config sets it") {
  const autotune::TargetInfo& v7x = *autotune::find_target("tpu-v7x");
  passes::LaunchResources r;
  r.vmem_bytes = v7x.vmem_bytes;
  CHECK(autotune::judge_launch(r, v7x, std::nullopt).fits);
  r.vmem_bytes = v7x.vmem_bytes + 1;
  const autotune::LaunchVerdict over = autotune::judge_launch(r, v7x, std::nullopt);
  CHECK_FALSE(over.fits);
  CHECK(over.vmem_capacity == v7x.vmem_bytes);
  CHECK(over.reason.find("tpu-v7x VMEM") != std::string::npos);
  r.vmem_bytes = 32 * MiB;
  CHECK(autotune::judge_launch(r, v7x, 32 * MiB).fits);
  const autotune::LaunchVerdict limited = autotune::judge_launch(r, v7x, 16 * MiB);
  CHECK_FALSE(limited.fits);
  CHECK(limited.reason == "needs 32 MiB of VMEM, more than the 16 MiB of vmem_limit_bytes");
  r.vmem_bytes = 0;
  r.smem_bytes = v7x.smem_bytes + 4;
  CHECK_FALSE(autotune::judge_launch(r, v7x, std::nullopt).fits);
}

TEST_CASE("a vmem_limit_bytes above the target's VMEM is an error at the value") {
  auto file = std::make_shared<const SourceFile>(
      "c.yaml",
      "schema_version: 1\nkernel: k\ndefault: {block_sizes: [8], vmem_limit_bytes: 99999999999}\n");
  DiagnosticEngine diags;
  auto config = autotune::parse_config_text(file, diags);
  REQUIRE(config);
  for (const autotune::TargetInfo& target : autotune::builtin_targets()) {
    DiagnosticEngine check;
    CHECK_FALSE(autotune::check_vmem_limit(config->default_config, target, check));
    REQUIRE(check.diagnostics().size() == 1);
    INFO(check.render());
    CHECK(check.render().find("c.yaml:3:47: error: `vmem_limit_bytes` is 99999999999") == 0);
  }
  autotune::KernelConfig fits;
  fits.vmem_limit_bytes = autotune::find_target("tpu-v4")->vmem_bytes;
  DiagnosticEngine quiet;
  CHECK(autotune::check_vmem_limit(fits, *autotune::find_target("tpu-v4"), quiet));
  CHECK_FALSE(quiet.has_errors());
}

TEST_CASE("format_bytes") {
  CHECK(autotune::format_bytes(100) == "100 B");
  CHECK(autotune::format_bytes(384 * KiB) == "384 KiB");
  CHECK(autotune::format_bytes(1536 * KiB) == "1.5 MiB");
  CHECK(autotune::format_bytes(64 * MiB) == "64 MiB");
}

}  // namespace
}  // namespace helionc

namespace helionc {
namespace {

TEST_CASE("sizes through reshape(-1, ...) of a trace-time-rank input, and absent optionals") {
  const Compiled k = compile(R"(@helion.kernel()
def rows(x: torch.Tensor, bias: torch.Tensor | None = None) -> torch.Tensor:
    n = x.size(-1)
    flat = x.reshape([-1, n])
    out = torch.empty_like(flat)
    for tile_r, tile_c in hl.tile([flat.size(0), n]):
        out[tile_r, tile_c] = flat[tile_r, tile_c] * 2.0
    if bias is not None:
        for tile_r, tile_c in hl.tile([flat.size(0), n]):
            out[tile_r, tile_c] = out[tile_r, tile_c] + bias[tile_c]
    return out
)");
  // x is 2 x 3 x 40 x 256: flat is (240, 256); default blocks (240 whole, 256 whole).
  std::map<int, passes::ConcreteTensor> args;
  args[k.kernel().params[0].binding] = {{2, 3, 40, 256}, ir::ScalarType::kFloat32};
  const passes::HostValues values(k.kernel(), args);
  const passes::LaunchResources r = account(k, values, {});
  CHECK(r.blocks == std::vector<int64_t>{240, 256});
  CHECK(r.hbm_bytes == 2 * 240 * 256 * 4);
  // The second launch reads `bias`, which this call leaves out.
  const passes::Launch& second = k.result->plans.front().launches.at(1);
  auto missing = passes::account_launch(k.kernel(), second, values, {});
  REQUIRE_FALSE(missing);
  CHECK(missing.error() == "`bias` is None in this call (the launch runs only when it is given)");
}

}  // namespace
}  // namespace helionc

namespace helionc {
namespace {

// Ranges that move with the outer tile (passes/inner_trips.h): the lower triangle, and a band.
const char* kCausalRowSum = R"(@helion.kernel()
def causal_row_sum(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(0, tile_m.end):
            acc = acc + x[tile_m, tile_n].to(torch.float32).sum(-1)
        out[tile_m] = acc
    return out
)";

const char* kBandRowSum = R"(@helion.kernel()
def band_row_sum(x: torch.Tensor) -> torch.Tensor:
    rows, cols = x.size()
    out = torch.empty([rows], dtype=torch.float32, device=x.device)
    for tile_r in hl.tile(rows):
        acc = hl.zeros([tile_r], dtype=torch.float32)
        for tile_c in hl.tile(max(tile_r.begin - 300, 0), min(cols, tile_r.end)):
            acc = acc + x[tile_r, tile_c].to(torch.float32).sum(-1)
        out[tile_r] = acc
    return out
)";

TEST_CASE("a loop up to the outer tile's end counts the blocks it runs, not the axis") {
  const Compiled c = compile(kCausalRowSum);
  const auto values = c.values({{{1024, 1024}, ir::ScalarType::kFloat32}});
  for (const LoopStrategy strategy : {LoopStrategy::kEmitPipeline, LoopStrategy::kForiLoop}) {
    passes::LaunchChoices choices;
    choices.block_sizes = {256, 128};
    choices.strategies = {strategy};
    const passes::LaunchResources r = account(c, values, choices);
    INFO(passes::loop_strategy_name(strategy));
    // Outer steps 0..3 end at 256, 512, 768, 1024: 2 + 4 + 6 + 8 = 20 blocks of 128 columns,
    // 5 per step; each block is 256 x 128 elements read once and summed, and the `acc +` of
    // its 256 rows runs once per block.
    CHECK(r.dim_steps.back() == 5);
    CHECK(operand(r, "x", Kind::kInput).hbm_bytes == int64_t{20} * 256 * 128 * 4);
    CHECK(r.flops == int64_t{20} * 256 * 128 + 20 * 256);
  }
  // `unroll` keeps the whole row resident: it is fetched whole, but only the blocks run work.
  passes::LaunchChoices unrolled;
  unrolled.block_sizes = {256, 128};
  unrolled.strategies = {LoopStrategy::kUnroll};
  const passes::LaunchResources r = account(c, values, unrolled);
  CHECK(operand(r, "x", Kind::kInput).hbm_bytes == int64_t{1024} * 1024 * 4);
  CHECK(r.flops == int64_t{20} * 256 * 128 + 20 * 256);
}

TEST_CASE("a band's loop counts its blocks at every outer step, empty ranges included") {
  const Compiled c = compile(kBandRowSum);
  const auto values = c.values({{{1000, 1000}, ir::ScalarType::kFloat32}});
  passes::LaunchChoices choices;
  choices.block_sizes = {256, 128};
  choices.strategies = {LoopStrategy::kEmitPipeline};
  const passes::LaunchResources r = account(c, values, choices);
  // Outer steps begin at 0, 256, 512, 768 and end at 256, 512, 768, 1000 (clipped). The column
  // range [max(begin - 300, 0), end) runs blocks [0, 2), [0, 4), [1, 6), [3, 8): 2 + 4 + 5 + 5
  // = 16 blocks, 4 per outer step.
  CHECK(r.dim_steps.back() == 4);
}

TEST_CASE("causal attention: the key blocks past the diagonal do no work and move no bytes") {
  std::ifstream file(std::string(HELIONC_SOURCE_DIR) + "/samples/causal_attention.py");
  std::stringstream text;
  text << file.rdbuf();
  const std::string source = text.str();
  const Compiled c = compile(source.c_str());
  REQUIRE(c.launch().inner_loops.front().skip);
  const passes::ConcreteTensor head = {{1, 1024, 64}, ir::ScalarType::kBFloat16};
  const auto values = c.values({head, head, head});
  for (const LoopStrategy strategy :
       {LoopStrategy::kGrid, LoopStrategy::kEmitPipeline, LoopStrategy::kUnroll}) {
    passes::LaunchChoices choices;
    choices.block_sizes = {1, 128, 128};
    choices.strategies = {strategy};
    const passes::LaunchResources r = account(c, values, choices);
    INFO(passes::loop_strategy_name(strategy));
    // 36 of the 8 x 8 block pairs lie on or below the diagonal; each runs two products of
    // 128 x 128 x 64.
    CHECK(r.mxu_flops == int64_t{36} * 2 * (2 * 128 * 128 * 64));
    // `grid` keeps its 8 key steps per query block (`pl.when` skips the work); the streaming
    // loop runs 36 / 8 = 4.5 blocks per query block, rounded up.
    CHECK(r.dim_steps.back() == (strategy == LoopStrategy::kGrid ? 8 : 5));
    if (strategy != LoopStrategy::kUnroll) {
      // k and v: 36 key blocks of 128 x 64 bf16 each.
      CHECK(operand(r, "k_view", Kind::kInput).hbm_bytes == int64_t{36} * 128 * 64 * 2);
    }
  }
}

}  // namespace
}  // namespace helionc
