#include <catch2/catch.hpp>

#include "lowering_fixture.h"

using helionc::testing::contains;
using helionc::testing::lower;

TEST_CASE("a broadcasting add lowers with a rank-polymorphic tile") {
  auto result = lower(R"(@helion.kernel()
def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    x, y = torch.broadcast_tensors(x, y)
    out = torch.empty(x.shape, dtype=torch.promote_types(x.dtype, y.dtype), device=x.device)
    for tile in hl.tile(out.size()):
        out[tile] = x[tile] + y[tile]
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  CHECK(contains(ir, "tile tile: variadic [0, shape_of(out)) block block_sizes[0]..."));
  CHECK(contains(ir, "let x.1: tensor<* x ?>, y.1: tensor<* x ?> = broadcast_tensors(x, y)"));
  CHECK(contains(ir, "promote_types(dtype_of(x.1), dtype_of(y.1))"));
  CHECK(contains(ir, "store out[*tile] = (load x.1[*tile] + load y.1[*tile])"));
}

TEST_CASE("unpacking x.size() fixes the rank and numbers block sizes in order") {
  auto result = lower(R"(@helion.kernel
def bias_act(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        out[tile_m, tile_n] = torch.relu(x[tile_m, tile_n] + bias[tile_n])
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  CHECK(contains(ir, "kernel bias_act(x: tensor<2 x ?>, bias: tensor<1 x ?>)"));
  CHECK(contains(ir, "tile tile_m: range [0, m) block block_sizes[0]"));
  CHECK(contains(ir, "tile tile_n: range [0, n) block block_sizes[1]"));
}

TEST_CASE("every decorator form marks a kernel; other functions are skipped") {
  auto result = lower(R"(from helion import kernel as hk
import helion as h
import helion.language as hl
import torch

def helper(x):
    return x

@h.kernel
def a(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = x[tile]
    return out

@h.kernel(static_shapes=True)
def b(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = x[tile]
    return out

@h.jit
def c(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = x[tile]
    return out

@hk()
def d(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = x[tile]
    return out

if __name__ == "__main__":
    helper(1)
)",
                      /*with_prelude=*/false);
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  REQUIRE(result->module.kernels.size() == 4);
  CHECK(result->module.kernels[0].name == "a");
  CHECK(result->module.kernels[3].name == "d");
  CHECK(result->module.kernels[1].ignored_decorator_keywords ==
        std::vector<std::string>{"static_shapes"});
}

TEST_CASE("a static if merges the names both branches bind") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor, fast: bool = True) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        v = x[tile]
        if fast:
            y = v * 2.0
        else:
            y = v + v
        out[tile] = y
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  CHECK(contains(result->ir(), "store out[*tile] = y.2"));
}

TEST_CASE("a name bound on one branch only is reported where it is used") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor, fast: bool = True) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        if fast:
            y = x[tile]
        out[tile] = y
    return out
)");
  CHECK(contains(result->errors(),
                 "k.py:11:21: error: `y` is defined on only one branch of an `if` above, and "
                 "this use is not under an `if` on the same condition"));
}

TEST_CASE("dtypes follow PyTorch promotion through casts and scalars") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        a = x[tile].to(torch.bfloat16)
        b = a * 2.5
        c = a.float() + a
        d = a.to(torch.int32) / 2
        e = a > 0
        out[tile] = b + c + d + e
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  CHECK(contains(ir, "let b: tile_tensor<[*tile] x bfloat16>"));
  CHECK(contains(ir, "let c: tile_tensor<[*tile] x float32>"));
  CHECK(contains(ir, "let d: tile_tensor<[*tile] x float32>"));
  CHECK(contains(ir, "let e: tile_tensor<[*tile] x bool>"));
}

TEST_CASE("an assert's f-string message formats its fields' values") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    n = x.size(0)
    assert y.size(0) == n, f"size mismatch {y.size(0)} != {n}"
    out = torch.empty_like(x)
    for tile in hl.tile(n):
        out[tile] = x[tile] + y[tile]
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  // Python's str.format of a template with the fields' values, as the f-string would print.
  INFO(result->ir());
  CHECK(contains(result->ir(),
                 R"(assert (size(y, 0) == n), format("size mismatch {} != {}", size(y, 0), n))"));
}
