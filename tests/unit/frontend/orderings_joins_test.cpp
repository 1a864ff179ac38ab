// Lowering of orderings (torch.sort/topk/argsort), joins (torch.cat, F.pad) and Python's
// conditional expression on a condition known while JAX traces.
#include <catch2/catch.hpp>

#include "lowering_fixture.h"

using helionc::testing::contains;
using helionc::testing::lower;

TEST_CASE("sort, topk and argsort are one sort_last of values and int32 positions") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        values, at = torch.sort(x[tile_m, :], descending=True)
        top, top_at = x[tile_m, :].topk(3, largest=False)
        order = torch.argsort(x[tile_m, :], dim=1)
        out[tile_m, :] = values + order
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  CHECK(contains(ir,
                 "let values: tile_tensor<[tile_m, x.size(1)] x ?>, at: tile_tensor<[tile_m, "
                 "x.size(1)] x int32> = sort_last(load x[tile_m, :], True, None)"));
  CHECK(contains(ir,
                 "let top: tile_tensor<[tile_m, 3] x ?>, top_at: tile_tensor<[tile_m, 3] x "
                 "int32> = sort_last(load x[tile_m, :], False, 3)"));
  CHECK(contains(ir,
                 "let order: tile_tensor<[tile_m, x.size(1)] x int32> = sort_last(load "
                 "x[tile_m, :], False, None)[1]"));
}

TEST_CASE("cat and pad join along an axis of numbers; the sum is the result's size") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    m = x.size(0)
    out = torch.empty([m, 12], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        row = x[tile_m, :]
        both = torch.cat([row[:, 0:4], row[:, 4:8]], dim=1)
        wide = torch.nn.functional.pad(both, (1, 3), value=float("-inf"))
        out[tile_m, :] = wide
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  CHECK(contains(ir, "let both: tile_tensor<[tile_m, 8] x ?> = concat("));
  CHECK(contains(ir,
                 "let wide: tile_tensor<[tile_m, 12] x ?> = pad(both, 1, 1, 3, float(\"-inf\"))"));
}

TEST_CASE("a conditional expression on a static condition is if_else; a constant one folds") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor, flag: bool) -> torch.Tensor:
    m = x.size(0)
    out = torch.empty_like(x)
    scale = 2.0 if flag else 1
    for tile_m in hl.tile(m):
        v = x[tile_m] * 2 if True else x[tile_m]
        out[tile_m] = v * scale
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  CHECK(contains(ir, "let scale: float = if_else(flag, 2.0, 1)"));
  CHECK(contains(ir, "let v: tile_tensor<[tile_m] x ?> = (load x[tile_m] * 2)"));
}

TEST_CASE("a tile value's shape entries are the sizes of its dimensions") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        v = x[tile_m, :]
        cols = hl.arange(0, v.shape[1], 1)
        blank = hl.zeros([v.shape[0], v.shape[1]], dtype=torch.get_default_dtype())
        out[tile_m, :] = v + cols + blank
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  CHECK(contains(ir, "let cols: tile_tensor<[x.size(1)] x int32> = arange(size(x, 1), int32)"));
  CHECK(contains(ir, "let blank: tile_tensor<[tile_m, x.size(1)] x float32> = "));
}

TEST_CASE("a tile value's .t() and .size(d); torch.tensor of a number in device code") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([n, m], dtype=x.dtype, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        v = x[tile_m, tile_n]
        flipped = v.t()
        rows = v.size(0)
        cols = hl.arange(v.size(1))
        out[tile_n, tile_m] = flipped + torch.tensor(3, dtype=torch.float32) + rows
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  CHECK(contains(ir, "let flipped: tile_tensor<[tile_n, tile_m] x ?> = permute(v, (1, 0))"));
  CHECK(contains(ir, "let rows: int = tile_m.block_size"));
  CHECK(contains(ir, "let cols: tile_tensor<[tile_n] x int32> = arange(tile_n.block_size, int32)"));
  CHECK(contains(ir, "((flipped + 3.0) + rows)"));
}
