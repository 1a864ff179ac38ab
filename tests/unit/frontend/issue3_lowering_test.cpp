// Lowering of reductions, shape ops, tile attributes, host views, optional arguments and
// built-in configs.
#include <catch2/catch.hpp>

#include "lowering_fixture.h"

using helionc::testing::contains;
using helionc::testing::lower;

TEST_CASE("a scalar index into a tile value is a window, not dropped") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m], dtype=torch.int32, device=x.device)
    for tile_m in hl.tile(m):
        v = x[tile_m, :].to(torch.bfloat16)
        s = v.sum(-1, keepdim=True)
        a = torch.amax(v, dim=1)
        best = v.max(dim=-1)
        out[tile_m] = best.indices + a.to(torch.int32) + s[:, 0].to(torch.int32) * 0
    return out
)");
  // `s[:, 0]` indexes a tile value with a scalar: a window of its unit axis, squeezed.
  CHECK(result->errors().empty());
  CHECK(contains(result->ir(), "squeeze(window(s, 1, 0, 1, 0), 1)"));
}

TEST_CASE("windows of a loaded block: bounds proved, checked at trace time or refused") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor, out: torch.Tensor) -> None:
    t, h, w = x.size()
    for _r in hl.grid(1):
        acc = hl.zeros([2, 128], dtype=torch.float32)
        for outer in hl.tile(t, block_size=4):
            x_block = x[outer, :, :]
            live = outer.end - outer.begin
            for pair in hl.tile(live, block_size=2):
                acc = acc + x_block[pair.index, :, :].sum(dim=0)
            for four in hl.tile(4, block_size=2):
                acc = acc + x_block[four.index + 0, :, :].sum(dim=0)
            acc = acc + x_block[1:3, :, 0:128].sum(dim=0)
        out[0, :, :] = acc
)");
  CHECK(result->errors().empty());
  const std::string ir = result->ir();
  // The live rows need no check; four rows and rows 1..2 of every block do (rows 4 and 3).
  CHECK(contains(ir, "window(x_block, 0, pair.begin, pair.block_size, 0)"));
  CHECK(contains(ir, "window(x_block, 0, four.begin, four.block_size, 4)"));
  CHECK(contains(ir, "window(window(x_block, 0, 1, 2, 3), 2, 0, 128, 0)"));
  // The literal sizes meet x's axes (equal) and the panel reads x's last axis (at least).
  CHECK(contains(ir, "check (size(x, 1) == 2)"));
  CHECK(contains(ir, "check (size(x, 2) >= 128)"));
  CHECK(contains(ir, "check (size(out, 1) == 2)"));
  CHECK(contains(ir, "tile_tensor<[2, 128] x float32>"));
}

TEST_CASE("reductions, softmax and shape ops lower with shapes") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        v = x[tile_m, :].to(torch.bfloat16)
        s = v.sum(-1, keepdim=True)
        a = torch.amax(v, dim=1)
        i = v.argmax(1)
        p = torch.nn.functional.softmax(v, dim=-1)
        t = v.T
        out[tile_m, :] = p + s + a[:, None] + i[:, None] + t.T
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  CHECK(contains(ir, "let s: tile_tensor<[tile_m, 1] x bfloat16> = sum(v, 1, True)"));
  CHECK(contains(ir, "let a: tile_tensor<[tile_m] x bfloat16> = amax(v, 1, False)"));
  CHECK(contains(ir, "let i: tile_tensor<[tile_m] x int32> = argmax(v, 1, False)"));
  CHECK(contains(ir, "let p: tile_tensor<[tile_m, x.size(1)] x bfloat16> = softmax(v, 1)"));
  CHECK(contains(ir, "let t: tile_tensor<[x.size(1), tile_m] x bfloat16> = permute(v, (1, 0))"));
}

TEST_CASE("a reduction dimension out of range is reported at the argument") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        out[tile_m] = x[tile_m, :].sum(2)
    return out
)");
  CHECK(contains(result->errors(),
                 "k.py:10:40: error: dimension 2 is out of range for a value with 2 dimensions"));
}

TEST_CASE("tile attributes are device values of the tile's dimension") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    n = x.size(0)
    out = torch.empty_like(x)
    for tile in hl.tile(n):
        out[tile] = x[tile] + tile.index + tile.begin
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  CHECK(contains(result->ir(), "store out[tile] = ((load x[tile] + tile.index) + tile.begin)"));
}

TEST_CASE("writing through a view of an output rebinds the output after the launch") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    flat = out.view(-1)
    for tile in hl.tile(flat.size(0)):
        flat[tile] = x.view(-1)[tile] * 2
    return out
)");
  // `x.view(-1)[tile]` indexes a view made in device code: not a host tensor, so rejected.
  CHECK(result->diags.has_errors());

  auto ok = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    flat = out.view(-1)
    x_flat = x.reshape(-1)
    for tile in hl.tile(flat.size(0)):
        flat[tile] = x_flat[tile] * 2
    return out
)");
  INFO(ok->errors());
  REQUIRE_FALSE(ok->diags.has_errors());
  CHECK(contains(ok->ir(), "let out.1: tensor<* x ?> = reshape(flat, shape_of(out))"));
  CHECK(contains(ok->ir(), "return out.1"));
}

TEST_CASE("optional tensors, constexpr and list parameters") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor, bias: torch.Tensor | None = None, flag: hl.constexpr = True,
      dims: list[int] = [0]) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        v = x[tile]
        if bias is not None:
            v = v + bias[tile]
        out[tile] = v
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  CHECK(contains(ir, "bias: optional tensor<* x ?> = None"));
  CHECK(contains(ir, "flag: bool = True"));
  CHECK(contains(ir, "dims: shape<*>"));
  CHECK(contains(ir, "if (bias is not None) {"));
}

TEST_CASE("built-in configs keep the Pallas keys and drop GPU-only ones") {
  auto result = lower(R"(@helion.kernel(configs=[helion.Config(block_sizes=[32], num_warps=4),
                           helion.Config(block_sizes=[64], pallas_loop_type=["unroll"])])
def f(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = x[tile]
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  REQUIRE(result->module.kernels.size() == 1);
  const auto& configs = result->module.kernels[0].builtin_configs;
  REQUIRE(configs.size() == 2);
  CHECK(configs[0].block_sizes == std::vector<int64_t>{32});
  CHECK(configs[1].pallas_loop_type == std::vector<std::string>{"unroll"});
}

TEST_CASE("expand, expand_as and squeeze() keep tile shapes") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        v = x[tile_m, tile_n]
        r = b[tile_n][None, :].expand(tile_m, -1)
        s = v.sum(1, keepdim=True)
        q = s.squeeze()
        out[tile_m, tile_n] = r + s.expand_as(v) + q[:, None]
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  CHECK(contains(
      ir, "let r: tile_tensor<[tile_m, tile_n] x ?> = broadcast_to(unsqueeze(load b[tile_n], 0))"));
  CHECK(contains(ir, "let q: tile_tensor<[tile_m] x ?> = squeeze(s, 1)"));
}

TEST_CASE("expanding to a shape that does not broadcast is reported") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        out[tile_m, tile_n] = x[tile_m, tile_n].expand(tile_n, tile_n)
    return out
)");
  CHECK(contains(result->errors(),
                 "error: a tile of shape [tile_m, tile_n] cannot be expanded to "
                 "[tile_n, tile_n]"));
}

TEST_CASE("a size of a tensor whose rank a later use states names an allocation axis") {
  // `x.size(1)` before `x[tile, :, :]` states x's rank: still x's axis 1.
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    h = hl.specialize(x.size(1))
    d = hl.specialize(x.size(2))
    out = torch.empty([1, h, d], dtype=torch.float32, device=x.device)
    for owner in hl.grid(1):
        acc = hl.zeros([h, d], dtype=torch.float32)
        for tile in hl.tile(x.size(0)):
            acc = acc + x[tile, :, :].to(torch.float32).sum(dim=0)
        out[owner, :, :] = acc
    return out
)");
  CHECK(result->errors().empty());
  CHECK(contains(result->ir(), "let acc: tile_tensor<[x.size(1), x.size(2)] x float32>"));
}
