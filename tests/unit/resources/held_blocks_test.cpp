// The block-sized values the TPU compiler holds in VMEM besides the blocks (passes/held_blocks.h):
// lane reductions of values used again, full-precision products, random draws; and a store at a
// tile's indices along an axis the block holds whole, which scatters (vmem_formula.h,
// launch_one_hots). Figures by hand from the rules.
#include <catch2/catch.hpp>

#include "passes/held_blocks.h"
#include "passes/launch_resources.h"
#include "passes/vmem_formula.h"
#include "resources/compiled_kernel.h"

namespace helionc {
namespace {

// A half-copy of one 32-bit register tile (8 rows x 128 lanes).
constexpr int64_t kHalfTile = 2 * KiB;

passes::LaunchResources rows_of(const char* source, passes::ConcreteTensor x,
                                std::vector<std::optional<int64_t>> blocks = {}) {
  const Compiled compiled = compile(source);
  passes::LaunchChoices choices;
  choices.block_sizes = std::move(blocks);
  return account(compiled, compiled.values({std::move(x)}), choices);
}

const passes::ConcreteTensor kRowsF32 = {{1024, 300}, ir::ScalarType::kFloat32};

TEST_CASE("a lane reduction of a value used again holds one and a half 32-bit copies of it") {
  // (128, 300) blocks: 16 x 3 register tiles.
  const int64_t tiles = 16 * 3;
  const passes::LaunchResources centered = rows_of(R"(@helion.kernel()
def centered(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        row = x[tile_m, :].to(torch.float32)
        out[tile_m, :] = (row - row.mean(-1, keepdim=True)).to(out.dtype)
    return out
)",
                                                   kRowsF32, {128});
  CHECK(centered.reduced_shapes == 1);
  CHECK(centered.reduction_bytes == tiles * passes::kReusedReductionHalves * kHalfTile);

  // Used again through a name computed from it (`sq = v * v; mean(sq)` and `v * r`).
  const passes::LaunchResources rms = rows_of(R"(@helion.kernel()
def rms(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        v = x[tile_m, :].to(torch.float32)
        sq = v * v
        out[tile_m, :] = (v * torch.rsqrt(torch.mean(sq, dim=-1, keepdim=True))).to(out.dtype)
    return out
)",
                                              kRowsF32, {128});
  CHECK(rms.reduction_bytes == tiles * passes::kReusedReductionHalves * kHalfTile);
}

TEST_CASE("a lane reduction of a value read nowhere else holds nothing; an argmax two copies") {
  const passes::LaunchResources sums = rows_of(R"(@helion.kernel()
def sums(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        sq = x[tile_m, :] * x[tile_m, :]
        out[tile_m] = sq.sum(-1)
    return out
)",
                                               kRowsF32, {128});
  CHECK(sums.reduced_shapes == 0);
  CHECK(sums.reduction_bytes == 0);

  // A row's statistic read again (`s`, one element per row) holds no block.
  const passes::LaunchResources scaled = rows_of(R"(@helion.kernel()
def scaled(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    m, n = x.size()
    out = torch.empty_like(x)
    top = torch.empty([m], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        s = x[tile_m, :].sum(-1, keepdim=True)
        out[tile_m, :] = x[tile_m, :] * s
        top[tile_m] = (x[tile_m, :] * s).amax(-1)
    return out, top
)",
                                                 kRowsF32, {128});
  CHECK(scaled.reduction_bytes == 0);

  const passes::LaunchResources where = rows_of(R"(@helion.kernel()
def where(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m], dtype=torch.int32, device=x.device)
    for tile_m in hl.tile(m):
        out[tile_m] = torch.argmax(x[tile_m, :], dim=-1).to(torch.int32)
    return out
)",
                                                kRowsF32, {128});
  CHECK(where.reduction_bytes == 16 * 3 * passes::kArgReductionHalves * kHalfTile);
}

// The v5 compilers' scratch for moving a lane reduction's result into lanes (configs/targets).
constexpr int64_t kLaneMove = 36 * KiB;

passes::LaunchResources moved(const char* source, passes::ConcreteTensor x,
                              std::vector<std::optional<int64_t>> blocks,
                              std::vector<passes::LoopStrategy> strategies = {}) {
  const Compiled compiled = compile(source);
  passes::LaunchChoices choices;
  choices.block_sizes = std::move(blocks);
  choices.strategies = std::move(strategies);
  choices.lane_move_scratch_bytes = kLaneMove;
  return account(compiled, compiled.values({std::move(x)}), choices);
}

constexpr const char* kRowSums = R"(@helion.kernel()
def sums(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        out[tile_m] = x[tile_m, :].sum(-1)
    return out
)";

TEST_CASE("moving a reduction's result into lanes takes the target's scratch, once per launch") {
  // More than 128 float32 values, or 16-bit ones at any count; not 128 float32 values.
  const passes::LaunchResources wide = moved(kRowSums, kRowsF32, {256});
  CHECK(wide.lane_moves == 1);
  CHECK(wide.lane_move_bytes == kLaneMove);
  CHECK(moved(kRowSums, kRowsF32, {128}).lane_move_bytes == 0);
  CHECK(moved(kRowSums, {{1024, 300}, ir::ScalarType::kBFloat16}, {16}).lane_move_bytes ==
        kLaneMove);
  // Where the target takes none, nothing.
  CHECK(rows_of(kRowSums, kRowsF32, {256}).lane_move_bytes == 0);

  // Two moves of one shape of results, one scratch.
  const passes::LaunchResources both = moved(R"(@helion.kernel()
def both(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    m, n = x.size()
    top = torch.empty([m], dtype=x.dtype, device=x.device)
    total = torch.empty([m], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        top[tile_m] = x[tile_m, :].amax(-1)
        total[tile_m] = x[tile_m, :].sum(-1)
    return top, total
)",
                                             kRowsF32, {512});
  CHECK(both.lane_moves == 1);
  CHECK(both.lane_move_bytes == kLaneMove);

  // A result kept as a column moves nothing.
  const passes::LaunchResources kept = moved(R"(@helion.kernel()
def kept(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m, 1], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        out[tile_m, :] = x[tile_m, :].sum(-1, keepdim=True)
    return out
)",
                                             kRowsF32, {512});
  CHECK(kept.lane_moves == 0);
  CHECK(kept.lane_move_bytes == 0);
}

passes::LaunchResources moved_with_row(const char* source, passes::ConcreteTensor x,
                                       passes::ConcreteTensor row, int64_t block) {
  const Compiled compiled = compile(source);
  passes::LaunchChoices choices;
  choices.block_sizes = {block};
  choices.lane_move_scratch_bytes = kLaneMove;
  return account(compiled, compiled.values({std::move(x), std::move(row)}), choices);
}

constexpr const char* kBiasRows = R"(@helion.kernel()
def biased(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        out[tile_m, :] = x[tile_m, :] + bias[None, :]
    return out
)";

TEST_CASE("rows of values that meet a block take the lane-move scratch at any length") {
  const passes::ConcreteTensor x16 = {{64, 256}, ir::ScalarType::kBFloat16};
  const passes::ConcreteTensor row16 = {{256}, ir::ScalarType::kBFloat16};
  // A 16-bit row broadcast against a block, at 8 rows as at 64.
  CHECK(moved_with_row(kBiasRows, x16, row16, 8).lane_move_bytes == kLaneMove);
  CHECK(moved_with_row(kBiasRows, x16, row16, 64).lane_move_bytes == kLaneMove);
  // A float32 row broadcast against a block: none.
  const passes::ConcreteTensor x32 = {{64, 256}, ir::ScalarType::kFloat32};
  const passes::ConcreteTensor row32 = {{256}, ir::ScalarType::kFloat32};
  CHECK(moved_with_row(kBiasRows, x32, row32, 64).lane_move_bytes == 0);
  // A float32 row made a column.
  CHECK(moved_with_row(R"(@helion.kernel()
def scaled(x: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        out[tile_m, :] = x[tile_m, :] * scale[tile_m][:, None]
    return out
)",
                       x32, {{64}, ir::ScalarType::kFloat32}, 8)
            .lane_move_bytes == kLaneMove);
  // An index row made a column (an iota) moves nothing.
  CHECK(moved_with_row(R"(@helion.kernel()
def lower(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        keep = tile_n.index[None, :] <= tile_m.index[:, None]
        out[tile_m, tile_n] = torch.where(keep, x[tile_m, tile_n], 0.0)
    return out
)",
                       x32, row32, 8)
            .lane_move_bytes == 0);
}

TEST_CASE("a moved result that meets a row of values read from VMEM takes the scratch at 8 rows") {
  // `acc` in the `grid` loop's scratch: a row of values in lanes, which the moved sums meet
  // there; carried in registers by the `unroll` loop, nothing at 8 rows.
  constexpr const char* kLongSum = R"(@helion.kernel()
def long_sum(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(n):
            acc = acc + x[tile_m, tile_n].to(torch.float32).sum(-1)
        out[tile_m] = acc
    return out
)";
  using passes::LoopStrategy;
  CHECK(moved(kLongSum, kRowsF32, {8, 128}, {LoopStrategy::kGrid}).lane_move_bytes == kLaneMove);
  CHECK(moved(kLongSum, kRowsF32, {8, 128}, {LoopStrategy::kUnroll}).lane_move_bytes == 0);
}

TEST_CASE("a scan along the lanes holds two copies of one input, more of a pair") {
  const passes::LaunchResources scans = rows_of(R"(@helion.kernel()
def scans(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        out[tile_m, :] = torch.cumsum(x[tile_m, :], dim=1)
    return out
)",
                                                kRowsF32, {128});
  CHECK(scans.reduced_shapes == 1);
  CHECK(scans.reduction_bytes == 16 * 3 * passes::kScanHalves * kHalfTile);
}

TEST_CASE("a float32 product holds its operands' bfloat16 parts and its result; bfloat16 none") {
  const Compiled mm = compile(kMatmul);
  passes::LaunchChoices choices;
  choices.block_sizes = {128, 128, 256};
  choices.strategies = {passes::LoopStrategy::kGrid};
  const passes::ConcreteTensor f32 = {{1024, 1024}, ir::ScalarType::kFloat32};
  const passes::ConcreteTensor bf16 = {{1024, 1024}, ir::ScalarType::kBFloat16};
  const passes::LaunchResources wide = account(mm, mm.values({f32, f32}), choices);
  // x (128, 256): 16 x 2 tiles; y (256, 128) contracted along its rows: 2 x 16 row tiles by 1;
  // the result (128, 128): 16 x 1.
  const int64_t operands = (16 * 2 + 32 * 1) * passes::kPreciseOperandHalves * kHalfTile;
  const int64_t result = 16 * 1 * passes::kPreciseResultHalves * kHalfTile;
  CHECK(wide.precise_products == 1);
  CHECK(wide.product_bytes == operands + result);
  const passes::LaunchResources narrow = account(mm, mm.values({bf16, bf16}), choices);
  CHECK(narrow.product_bytes == 0);
  CHECK(wide.vmem_bytes - narrow.vmem_bytes > wide.product_bytes);  // and wider blocks
}

TEST_CASE(
    "random draws hold Philox's words: per shape drawn, more for randn and each further "
    "draw") {
  const passes::LaunchResources noise = rows_of(R"(@helion.kernel()
def noise(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        row = x[tile_m, :]
        out[tile_m, :] = row + torch.rand_like(row) + torch.randn_like(row)
    return out
)",
                                                kRowsF32, {128});
  CHECK(noise.random_draws == 2);
  CHECK(noise.random_bytes ==
        16 * 3 * (passes::kNormalDrawHalves + passes::kFurtherDrawHalves) * kHalfTile);
}

TEST_CASE("a shape of two axes drawn once holds less: its counters are full-shape iotas") {
  const passes::LaunchResources noise = rows_of(R"(@helion.kernel()
def noise(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        row = x[tile_m, :]
        out[tile_m, :] = row + torch.randn_like(row)
    return out
)",
                                                kRowsF32, {128});
  // x (128, 300): 16 x 3 tiles.
  CHECK(noise.random_draws == 1);
  CHECK(noise.random_bytes == 16 * 3 * passes::kFullIotaDrawHalves * kHalfTile);
}

TEST_CASE("a rank-1 draw holds fewer copies, at a register tile per 128 elements") {
  const passes::LaunchResources bins = rows_of(R"(@helion.kernel()
def bins(x: torch.Tensor) -> torch.Tensor:
    (n,) = x.size()
    out = torch.empty_like(x)
    for tile in hl.tile(n):
        out[tile] = x[tile] + torch.rand_like(x[tile])
    return out
)",
                                               {{1000}, ir::ScalarType::kFloat32}, {1024});
  CHECK(bins.random_bytes == 8 * passes::kFlatDrawHalves * kHalfTile);
}

TEST_CASE("a store at a tile's indices beside a store of one column scatters along the axis") {
  const Compiled stamp = compile(R"(@helion.kernel()
def stamp(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        out[tile_m, tile_n] = x[tile_m, tile_n] * 2
        out[tile_m, n - 1] = x[tile_m, 0]
    return out
)");
  const std::vector<passes::OneHot> one_hots = passes::launch_one_hots(stamp.launch());
  REQUIRE(one_hots.size() == 1);
  CHECK(one_hots.front().scatter);
  CHECK(one_hots.front().indices ==
        std::vector<ir::Dim>{ir::Dim::tile(stamp.launch().grid[1].tile_dim)});
}

TEST_CASE("a shape drawn once beside a shape drawn twice: each counted by its own rule") {
  const passes::LaunchResources noise = rows_of(R"(@helion.kernel()
def noise(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        row = x[tile_m, :]
        out[tile_m, :] = row + torch.rand_like(row)
        col = row[:, 0]
        out[tile_m, 0] = col + torch.rand_like(col) + torch.randn_like(col)
    return out
)",
                                                kRowsF32, {128});
  // row (128, 300): 16 x 3 tiles, drawn once; col (128,): one row of one tile, a uniform (rank
  // 1) then a normal.
  CHECK(noise.random_draws == 3);
  CHECK(noise.random_bytes ==
        (16 * 3 * passes::kFullIotaDrawHalves + passes::kFlatDrawHalves +
         passes::kFurtherDrawHalves + passes::kNormalDrawHalves - passes::kDrawHalves) *
            kHalfTile);
}

}  // namespace
}  // namespace helionc
