// Lowering of reductions, shape ops, tile attributes, host views, optional arguments and
// built-in configs.
#include <catch2/catch.hpp>

#include "lowering_fixture.h"

using helionc::testing::contains;
using helionc::testing::lower;

TEST_CASE("a scalar index into a tile value is reported, not dropped") {
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
  const std::string text = result->errors();
  // `s[:, 0]` indexes a tile value with a scalar: not supported yet, and said so.
  CHECK(contains(text,
                 "k.py:14:63: error: indexing a tile value with anything but `:` and `None` "
                 "is not supported yet"));
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
