// Inner loops: carried values (ir::TileLoop::Carry) and what dies with the loop.
#include <catch2/catch.hpp>

#include "lowering_fixture.h"

namespace helionc::testing {
namespace {

const char* kRowSums =
    "@helion.kernel()\n"
    "def row_sums(x: torch.Tensor) -> torch.Tensor:\n"
    "    m, n = x.size()\n"
    "    out = torch.empty([m], dtype=torch.float32, device=x.device)\n"
    "    for tile_m in hl.tile(m):\n"
    "        acc = hl.zeros([tile_m], dtype=torch.float32)\n"
    "        big = hl.full([tile_m], float('-inf'), dtype=torch.float32)\n"
    "        for tile_n in hl.tile(n):\n"
    "            row = x[tile_m, tile_n].to(torch.float32)\n"
    "            acc += row.sum(-1)\n"
    "            big = torch.maximum(big, row.amax(-1))\n"
    "        out[tile_m] = acc + big\n"
    "    return out\n";

TEST_CASE("names rebound in an inner loop are carried, each with its own bindings") {
  auto lowered = lower(kRowSums);
  INFO(lowered->errors());
  REQUIRE_FALSE(lowered->diags.has_errors());
  const std::string ir = lowered->ir();
  INFO(ir);
  CHECK(contains(ir, "carry acc.1: tile_tensor<[tile_m] x float32> = acc then acc.2"));
  CHECK(contains(ir, "carry big.1: tile_tensor<[tile_m] x float32> = big then big.2"));
  CHECK(contains(ir, "let acc.3: tile_tensor<[tile_m] x float32> = acc.2"));
  CHECK(contains(ir, "store out[tile_m] = (acc.3 + big.3)"));
}

TEST_CASE("a value bound only inside an inner loop is not visible after it") {
  auto lowered = lower(
      "@helion.kernel()\n"
      "def f(x: torch.Tensor) -> torch.Tensor:\n"
      "    m, n = x.size()\n"
      "    out = torch.empty([m], dtype=torch.float32, device=x.device)\n"
      "    for tile_m in hl.tile(m):\n"
      "        acc = hl.zeros([tile_m], dtype=torch.float32)\n"
      "        for tile_n in hl.tile(n):\n"
      "            part = x[tile_m, tile_n].sum(-1)\n"
      "            acc = acc + part\n"
      "        out[tile_m] = acc + part\n"
      "    return out\n");
  CHECK(lowered->diags.has_errors());
  CHECK(contains(lowered->errors(), "`part`"));
}

TEST_CASE("a carried value must keep its shape") {
  auto lowered = lower(
      "@helion.kernel()\n"
      "def f(x: torch.Tensor) -> torch.Tensor:\n"
      "    m, n = x.size()\n"
      "    out = torch.empty([m], dtype=torch.float32, device=x.device)\n"
      "    for tile_m in hl.tile(m):\n"
      "        acc = hl.zeros([tile_m], dtype=torch.float32)\n"
      "        for tile_n in hl.tile(n):\n"
      "            acc = acc[:, None] + x[tile_m, tile_n]\n"
      "        out[tile_m] = acc\n"
      "    return out\n");
  CHECK(contains(lowered->errors(),
                 "`acc` is carried around the loop but changes from [tile_m] float32 to "
                 "[tile_m, tile_n]"));
}

TEST_CASE("hl.static_range is a loop over host ints whose rebound names are carried") {
  auto lowered = lower(
      "@helion.kernel()\n"
      "def poly(x: torch.Tensor, terms: hl.constexpr = 4) -> torch.Tensor:\n"
      "    m, n = x.size()\n"
      "    out = torch.empty_like(x)\n"
      "    for tile_m, tile_n in hl.tile([m, n]):\n"
      "        v = x[tile_m, tile_n]\n"
      "        acc = v * 0\n"
      "        for i in hl.static_range(1, terms):\n"
      "            acc = acc + v * i\n"
      "        out[tile_m, tile_n] = acc\n"
      "    return out\n");
  INFO(lowered->errors());
  REQUIRE_FALSE(lowered->diags.has_errors());
  const std::string ir = lowered->ir();
  INFO(ir);
  CHECK(contains(ir, "for i: int in static_range(1, terms, 1) {"));
  CHECK(contains(ir, "= acc then acc.2"));
}

TEST_CASE("hl.static_range needs host ints and device code") {
  auto outside = lower(
      "@helion.kernel()\n"
      "def f(x: torch.Tensor) -> torch.Tensor:\n"
      "    for i in hl.static_range(4):\n"
      "        pass\n"
      "    return x\n");
  CHECK(contains(outside->errors(), "outside device code"));
}

TEST_CASE("a host int bound to a size is a shape entry; torch.mm takes an out_dtype") {
  auto lowered = lower(
      "@helion.kernel()\n"
      "def rows(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:\n"
      "    m, n = x.size()\n"
      "    _, d = y.size()\n"
      "    d = hl.specialize(d)\n"
      "    out = torch.empty([m, d], dtype=torch.float32, device=x.device)\n"
      "    for tile_m in hl.tile(m):\n"
      "        acc = hl.zeros([tile_m, d], dtype=torch.float32)\n"
      "        for tile_n in hl.tile(n):\n"
      "            acc = acc + torch.mm(x[tile_m, tile_n], y[tile_n, :], torch.float32)\n"
      "        out[tile_m, :] = acc\n"
      "    return out\n");
  INFO(lowered->errors());
  REQUIRE_FALSE(lowered->diags.has_errors());
  CHECK(contains(lowered->ir(), "let acc: tile_tensor<[tile_m, y.size(1)] x float32>"));
}

TEST_CASE(
    "an `if` on a tile attribute is data-dependent, not static: its stores run on the device") {
  auto lowered = lower(
      "@helion.kernel()\n"
      "def f(x: torch.Tensor) -> torch.Tensor:\n"
      "    out = torch.empty_like(x)\n"
      "    for tile in hl.tile(x.size(0)):\n"
      "        if tile.begin == 0:\n"
      "            out[tile] = x[tile]\n"
      "    return out\n");
  INFO(lowered->errors());
  REQUIRE_FALSE(lowered->diags.has_errors());
  CHECK(contains(lowered->ir(), "if_device "));
}

}  // namespace
}  // namespace helionc::testing
