// The search (autotune/search.h) on kernels compiled from source: the exhaustive optimum is at
// least as good as every point judged on its own, the sampled search with descent finds it on
// a small space, the same seed gives the same result, and refused points carry their reasons.
#include <catch2/catch.hpp>

#include "autotune/search.h"
#include "autotune/targets.h"
#include "resources/compiled_kernel.h"

namespace helionc {
namespace {

using passes::LoopStrategy;

autotune::Candidate make(std::vector<int64_t> blocks, LoopStrategy strategy) {
  autotune::Candidate c;
  c.config.block_sizes = std::move(blocks);
  c.config.pallas_loop_type = {std::string(passes::loop_strategy_name(strategy))};
  c.strategies = {strategy};
  return c;
}

TEST_CASE("search: the exhaustive optimum beats every point judged on its own") {
  const Compiled mm = compile(kMatmul);
  const autotune::TargetInfo& v5e = target("tpu-v5e");
  const autotune::KernelSearch search(mm.kernel(), mm.result->plans.front(), v5e);
  const auto values = mm.values(
      {{{2048, 1024}, ir::ScalarType::kBFloat16}, {{1024, 2048}, ir::ScalarType::kBFloat16}});
  const autotune::CallResult r = search.search(values, {});
  REQUIRE(r.best);
  CHECK(r.exhaustive);
  // m: bf16 sublanes 16..2048 (8 values); n, k: lanes 128..2048, 128..1024 (5 and 4 values);
  // grid, unroll, emit_pipeline, and fori_loop with 1-3 slots; the grid in either order.
  CHECK(r.space_size == 8 * 5 * 4 * 6 * 2);
  CHECK(r.evaluated <= r.space_size);
  for (LoopStrategy s : {LoopStrategy::kGrid, LoopStrategy::kUnroll, LoopStrategy::kEmitPipeline}) {
    for (std::vector<int64_t> blocks :
         {std::vector<int64_t>{128, 128, 128}, std::vector<int64_t>{256, 512, 512},
          std::vector<int64_t>{512, 1024, 1024}, std::vector<int64_t>{1024, 2048, 256}}) {
      const autotune::Evaluation ev = search.evaluate(make(blocks, s), values);
      INFO(autotune::strategy_text({s})
           << " " << blocks[0] << "/" << blocks[1] << "/" << blocks[2]);
      REQUIRE(ev.legal);
      CHECK(r.best_evaluation.time_us <= ev.time_us);
    }
  }
  // The winner's own evaluation is what the search recorded, and every strategy has a best.
  CHECK(search.evaluate(*r.best, values).time_us == Approx(r.best_evaluation.time_us));
  CHECK(r.best_per_strategy.size() == 4);
}

TEST_CASE("search: sampling then descent finds the exhaustive optimum of a small space") {
  const Compiled mm = compile(kMatmul);
  const autotune::KernelSearch search(mm.kernel(), mm.result->plans.front(), target("tpu-v7x"));
  const auto values = mm.values(
      {{{1024, 1024}, ir::ScalarType::kBFloat16}, {{1024, 1024}, ir::ScalarType::kBFloat16}});
  const autotune::CallResult exhaustive = search.search(values, {});
  REQUIRE(exhaustive.exhaustive);
  autotune::SearchOptions sampled;
  sampled.exhaustive_limit = 16;  // far fewer samples than points: descent does the rest
  sampled.seed = 7;
  const autotune::CallResult guided = search.search(values, sampled);
  CHECK_FALSE(guided.exhaustive);
  REQUIRE(guided.best);
  CHECK(guided.evaluated < exhaustive.evaluated);
  CHECK(guided.best_evaluation.time_us == Approx(exhaustive.best_evaluation.time_us));
  // The same seed, the same walk.
  const autotune::CallResult again = search.search(values, sampled);
  CHECK(again.best->config == guided.best->config);
  CHECK(again.evaluated == guided.evaluated);
}

TEST_CASE("search: refused points carry the reason, and big configs raise the VMEM limit") {
  const Compiled mm = compile(kMatmul);
  const autotune::TargetInfo& v4 = target("tpu-v4");
  const autotune::KernelSearch search(mm.kernel(), mm.result->plans.front(), v4);
  const auto values = mm.values(
      {{{8192, 8192}, ir::ScalarType::kFloat32}, {{8192, 8192}, ir::ScalarType::kFloat32}});
  const autotune::CallResult r = search.search(values, {});
  REQUIRE(r.best);
  CHECK(r.pruned > 0);
  CHECK(r.reasons.count("launch 0 needs more VMEM than the 16 MiB of tpu-v4 VMEM") == 1);
  // A refused point: k resident for 4096-row blocks of f32 is far over 16 MiB.
  const autotune::Evaluation refused =
      search.evaluate(make({4096, 4096, 4096}, LoopStrategy::kUnroll), values);
  CHECK_FALSE(refused.legal);
  // Only configs within the default scoped limit leave vmem_limit_bytes unset.
  const bool over = r.best_evaluation.vmem_bytes > v4.default_scoped_vmem_bytes;
  CHECK(r.best->config.vmem_limit_bytes.has_value() == over);
}

TEST_CASE("search: keep_top keeps the fastest legal candidates, fastest first") {
  const Compiled mm = compile(kMatmul);
  const autotune::TargetInfo& v5e = target("tpu-v5e");
  const autotune::KernelSearch search(mm.kernel(), mm.result->plans.front(), v5e);
  const auto values = mm.values(
      {{{2048, 1024}, ir::ScalarType::kBFloat16}, {{1024, 2048}, ir::ScalarType::kBFloat16}});
  autotune::SearchOptions options;
  options.keep_top = 8;
  const autotune::CallResult r = search.search(values, options);
  REQUIRE(r.best);
  REQUIRE(r.top.size() == 8);
  CHECK(r.top.front().first.config == r.best->config);
  for (size_t i = 1; i < r.top.size(); ++i) {
    CHECK(r.top[i - 1].second.time_us <= r.top[i].second.time_us);
    CHECK_FALSE(r.top[i - 1].first.config == r.top[i].first.config);
  }
  // No strategy's best is faster than the last kept one unless it is kept.
  for (const auto& [strategies, best] : r.best_per_strategy) {
    bool kept = false;
    for (const auto& [cand, ev] : r.top) kept = kept || cand.config == best.first.config;
    CHECK((kept || best.second.time_us >= r.top.back().second.time_us));
  }
  // The default keeps one: the best.
  const autotune::CallResult one = search.search(values, {});
  REQUIRE(one.top.size() == 1);
  CHECK(one.top.front().first.config == one.best->config);
}

// A product whose row block is fixed small (16 rows, as a decode-like caller keeps it) while
// the column block is tuned: the grid's order decides which operand every step re-reads.
const char* kRowPanelMatmul = R"(@helion.kernel(static_shapes=True)
def row_panel_matmul(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    m, k = x.size()
    k2, n = y.size()
    out = torch.empty([m, n], dtype=x.dtype, device=x.device)
    for tile_m, tile_n in hl.tile([m, n], block_size=[16, None]):
        out[tile_m, tile_n] = torch.matmul(x[tile_m, :], y[:, tile_n]).to(x.dtype)
    return out
)";

TEST_CASE("search: exhaustive over blocks, strategies and grid orders returns the optimum") {
  const Compiled mm = compile(kMatmul);
  const autotune::TargetInfo& v5e = target("tpu-v5e");
  const autotune::KernelSearch search(mm.kernel(), mm.result->plans.front(), v5e);
  // A small, memory-bound call, so that the grid's order changes the HBM bytes.
  const auto values = mm.values(
      {{{512, 2048}, ir::ScalarType::kFloat32}, {{2048, 1024}, ir::ScalarType::kFloat32}});
  const autotune::CallResult r = search.search(values, {});
  REQUIRE(r.best);
  REQUIRE(r.exhaustive);
  // Every point of the space judged on its own, the orders included.
  double best = 1e300;
  std::vector<int64_t> best_order;
  size_t points = 0;
  for (int64_t bm : {8, 16, 32, 64, 128, 256, 512}) {
    for (int64_t bn : {128, 256, 512, 1024}) {
      for (int64_t bk : {128, 256, 512, 1024, 2048}) {
        for (LoopStrategy s : {LoopStrategy::kGrid, LoopStrategy::kUnroll,
                               LoopStrategy::kEmitPipeline, LoopStrategy::kForiLoop}) {
          for (const std::vector<int64_t>& order : {std::vector<int64_t>{0, 1}, {1, 0}}) {
            autotune::Candidate c = make({bm, bk, bn}, s);
            c.config.loop_orders = {order};
            const autotune::Evaluation ev = search.evaluate(c, values);
            ++points;
            if (ev.legal && ev.time_us < best) {
              best = ev.time_us;
              best_order = order;
            }
          }
        }
      }
    }
  }
  CHECK(points * 6 / 4 == r.space_size);  // fori_loop's 3 slot counts besides
  CHECK(r.best_evaluation.time_us <= best * (1 + 1e-12));
  // The recorded winner is what its config gives when judged again, its order included.
  CHECK(search.evaluate(*r.best, values).time_us == Approx(r.best_evaluation.time_us));
  // Both orders were judged for the same blocks (the orders are distinct schedules here).
  bool reordered = false;
  for (const autotune::CoordinateStats& c : r.coordinates) {
    if (c.name != "loop_orders[0]") continue;
    REQUIRE(c.values.size() == 2);
    CHECK(c.values[0].value == "[0, 1]");
    CHECK(c.values[1].value == "[1, 0]");
    CHECK(c.dims == "tile_m, tile_n");
    reordered = c.values[1].legal > 0;
  }
  CHECK(reordered);
}

TEST_CASE("search: a fixed small row block makes tile_m the innermost grid axis") {
  const Compiled mm = compile(kRowPanelMatmul);
  const autotune::TargetInfo& v7x = target("tpu-v7x");
  const autotune::KernelSearch search(mm.kernel(), mm.result->plans.front(), v7x);
  // y (128 MiB) cannot stay whole in VMEM, where a block that never changes takes one buffer.
  const int64_t m = 8192, k = 4096, n = 16384;
  const auto values =
      mm.values({{{m, k}, ir::ScalarType::kBFloat16}, {{k, n}, ir::ScalarType::kBFloat16}});
  const autotune::CallResult r = search.search(values, {});
  REQUIRE(r.best);
  REQUIRE(r.best->config.loop_orders.size() == 1);
  // tile_n outermost: y's K x bn panel stays in VMEM while x's 16-row blocks stream past it.
  CHECK(r.best->config.loop_orders[0] == std::vector<int64_t>{1, 0});
  const int64_t bn = r.best->config.block_sizes[0];
  REQUIRE(bn < n);  // more than one column block, or the order would not matter
  // The HBM bytes of each order (bf16: 2 bytes an element): as written, tile_n is innermost
  // and every step fetches another panel of y, so y is read once per row block (m / 16
  // times) and x once; reordered, x is read once per column block and y once. The output
  // is written once either way.
  autotune::Candidate as_written = *r.best;
  as_written.config.loop_orders.clear();
  const autotune::Evaluation before = search.evaluate(as_written, values);
  REQUIRE(before.legal);
  CHECK(before.hbm_bytes == 2 * (m * k + (m / 16) * k * n + m * n));
  CHECK(r.best_evaluation.hbm_bytes == 2 * ((n / bn) * m * k + k * n + m * n));
  CHECK(r.best_evaluation.time_us < before.time_us);
}

const char* kRegisteredRange = R"(@helion.kernel(static_shapes=True)
def scale(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    rows = hl.register_block_size(16, 64)
    cols = hl.register_block_size(n)
    out = torch.empty_like(x)
    for tile_m in hl.tile(m, block_size=rows):
        for tile_n in hl.tile(n, block_size=cols):
            out[tile_m, tile_n] = x[tile_m, tile_n] * 2.0
    return out
)";

std::vector<std::string> offered(const autotune::CallResult& r, const std::string& name) {
  std::vector<std::string> values;
  for (const autotune::CoordinateStats& c : r.coordinates) {
    if (c.name != name) continue;
    for (const autotune::ValueStats& v : c.values) values.push_back(v.value);
  }
  return values;
}

TEST_CASE("search: blocks of hl.register_block_size stay within its range") {
  const Compiled k = compile(kRegisteredRange);
  const autotune::KernelSearch search(k.kernel(), k.result->plans.front(), target("tpu-v7x"));
  // (16, 64) on rows whose sublane multiple is 8: 16, 32 and 64 only, not 8 or 128..
  const autotune::CallResult wide =
      search.search(k.values({{{4096, 8192}, ir::ScalarType::kFloat32}}), {});
  REQUIRE(wide.best);
  CHECK(offered(wide, "block_sizes[0]") == std::vector<std::string>{"16", "32", "64"});
  // (n) alone caps the lanes at n's power of two: 128 .. 512 and the whole 300.
  const autotune::CallResult narrow =
      search.search(k.values({{{4096, 300}, ir::ScalarType::kFloat32}}), {});
  CHECK(offered(narrow, "block_sizes[1]") == std::vector<std::string>{"128", "256", "512", "300"});
  // Rows fewer than the range's minimum: 16 only, which `_legal_block` makes the whole axis.
  const autotune::CallResult few =
      search.search(k.values({{{10, 300}, ir::ScalarType::kFloat32}}), {});
  CHECK(offered(few, "block_sizes[0]") == std::vector<std::string>{"16"});
  // A range below the role's multiple (int8 rows pack 32 sublanes): the smallest legal block.
  const autotune::CallResult packed =
      search.search(k.values({{{4096, 8192}, ir::ScalarType::kInt8}}), {});
  CHECK(offered(packed, "block_sizes[0]") == std::vector<std::string>{"32", "64"});
}

}  // namespace
}  // namespace helionc
