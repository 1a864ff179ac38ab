// Lowering of hl.arange, reshape/view of tile values, and the shape of a tile indexed next to a
// tile of indices (`x[tile_n, idx[tile_n]]`).
#include <catch2/catch.hpp>

#include "lowering_fixture.h"

using helionc::testing::contains;
using helionc::testing::lower;

TEST_CASE("hl.arange of a block size or a tensor size is a tile of that dimension") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        rows = tile_m.begin + hl.arange(tile_m.block_size)
        cols = hl.arange(0, tile_n.block_size, dtype=torch.float32)
        whole = hl.arange(x.size(1))
        also = hl.arange(x.shape[-1])
        one = hl.arange(1)
        out[tile_m, tile_n] = rows[:, None] + cols[None, :] + one
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  CHECK(contains(ir,
                 "let rows: tile_tensor<[tile_m] x int32> = (tile_m.begin + "
                 "arange(tile_m.block_size, int32))"));
  CHECK(contains(ir,
                 "let cols: tile_tensor<[tile_n] x float32> = arange(tile_n.block_size, "
                 "float32)"));
  CHECK(contains(ir, "let whole: tile_tensor<[x.size(1)] x int32> = arange(size(x, 1), int32)"));
  CHECK(contains(ir, "let also: tile_tensor<[x.size(1)] x int32> = arange(size(x, 1), int32)"));
  CHECK(contains(ir, "let one: tile_tensor<[1] x int32> = arange(1, int32)"));
}

TEST_CASE("a host int computed from sizes is a dimension of its own, checked where it meets") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    half = n // 2
    out = torch.empty([m, half], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m, half], dtype=torch.float32)
        pos = hl.arange(half)
        again = hl.arange(n // 2)
        folded = x[tile_m, :].reshape(tile_m, 2, half).sum(1)
        out[tile_m, :] = acc + pos[None, :] + again[None, :] + folded + c[tile_m, :]
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  // One dimension per expression: `half` is `n // 2`, so both aranges have that dimension.
  CHECK(contains(ir, "let acc: tile_tensor<[tile_m, half] x float32>"));
  CHECK(contains(ir, "let pos: tile_tensor<[half] x int32> = arange((n // 2), int32)"));
  CHECK(contains(ir, "let again: tile_tensor<[half] x int32> = arange((n // 2), int32)"));
  CHECK(contains(ir,
                 "check (size(x, 1) == ((n // 2) * 2)), \"x.size(1) must be half * 2: the "
                 "kernel reshapes"));
  CHECK(contains(ir, "c.size(1) must be half"));
  CHECK(contains(ir, "out.size(1) must be half"));
}

TEST_CASE("an accumulator sized by another tensor's axis takes the product, checked") {
  auto result = lower(R"(@helion.kernel
def f(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    m, k = a.size()
    out = torch.empty([m, c.size(1)], dtype=torch.float32, device=a.device)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m, c.size(1)], dtype=torch.float32)
        for tile_k in hl.tile(k):
            acc = hl.dot(a[tile_m, tile_k], b[tile_k, :], acc=acc)
        out[tile_m, :] = acc
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  CHECK(contains(result->ir(), "b.size(1) must be c.size(1): the kernel combines the two sizes"));
  auto tile_acc = lower(R"(@helion.kernel
def f(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    m, k = a.size()
    out = torch.empty([m, b.size(1)], dtype=torch.float32, device=a.device)
    for tile_m, tile_n in hl.tile([m, b.size(1)]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for tile_k in hl.tile(k):
            acc = hl.dot(a[tile_m, tile_k], b[tile_k, :], acc=acc)
        out[tile_m, tile_n] = acc
    return out
)");
  CHECK(contains(tile_acc->errors(),
                 "`acc` of shape [tile_m, tile_n] does not match the product's shape [tile_m, "
                 "b.size(1)]"));
}

TEST_CASE("hl.arange of a length helionc cannot name as a dimension is reported") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        a = hl.arange(tile_m.block_size // 2)
        b = hl.arange(1.5)
        c = hl.arange(4, tile_m.block_size)
        d = hl.arange(0, tile_m.block_size, 2)
        e = hl.arange(tile_m.block_size, dtype=torch.bool)
        out[tile_m, :] = x[tile_m, :]
    return out
)");
  const std::string text = result->errors();
  CHECK(contains(text,
                 "k.py:10:23: error: `hl.arange` whose element count ((end - start) / step) is "
                 "not `tile.block_size`, a tensor's `size(d)`, a number or a host int computed "
                 "from sizes"));
  CHECK(contains(text, "k.py:11:23: error: `hl.arange`"));
  // block_size - 4 and block_size / 2 elements: counts no dimension names.
  CHECK(contains(text, "k.py:12:13: error: `hl.arange` whose element count"));
  CHECK(contains(text, "k.py:13:13: error: `hl.arange` whose element count"));
  CHECK(contains(text, "k.py:14:48: error: `hl.arange` makes numbers, not bools"));
}

TEST_CASE("hl.arange and torch.arange with a start and a step are start + step * iota") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    n = x.size(0)
    out = torch.empty_like(x)
    for tile in hl.tile(n):
        a = hl.arange(tile.begin * 2, (tile.begin + tile.block_size) * 2, step=2)
        b = torch.arange(tile.begin, tile.begin + tile.block_size, device=x.device)
        c = hl.arange(8, 24)
        d = hl.arange(0, 2 * n, 2)
        out[tile] = x[tile]
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  CHECK(contains(ir,
                 "let a: tile_tensor<[tile] x int32> = ((tile.begin * 2) + (2 * "
                 "arange(tile.block_size, int32)))"));
  CHECK(contains(ir,
                 "let b: tile_tensor<[tile] x int32> = (tile.begin + arange(tile.block_size, "
                 "int32))"));
  CHECK(contains(ir, "let c: tile_tensor<[16] x int32> = (8 + arange(16, int32))"));
  CHECK(contains(ir, "let d: tile_tensor<[x.size(0)] x int32> = (2 * arange(size(x, 0), int32))"));
}

TEST_CASE("reshape and view of a tile add and remove unit dimensions") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        rows = x[tile_m, :]
        col = w[tile_m].reshape(tile_m, 1)
        col2 = w[tile_m].view(-1, 1)
        col3 = torch.reshape(w[tile_m], [1, tile_m.block_size, 1])
        flat = col.view(-1)
        same = rows.view(tile_m, x.size(1))
        wide = rows.reshape(1, -1, 2 * tile_m.block_size)
        out[tile_m, :] = same + col + col2 + col3[0] + flat[:, None] + wide[0]
    return out
)");
  // `wide` uses a size computed from a block size: device code computes it.
  const std::string text = result->errors();
  CHECK(
      contains(text, "k.py:16:36: error: a `.reshape()` size computed from values of device code"));
  auto ok = lower(R"(@helion.kernel
def f(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        rows = x[tile_m, :]
        col = w[tile_m].reshape(tile_m, 1)
        col2 = w[tile_m].view(-1, 1)
        col3 = torch.reshape(w[tile_m], [1, tile_m.block_size, 1])
        flat = col.view(-1)
        same = rows.view(tile_m, x.size(1))
        wide = rows.reshape(1, -1, n)
        out[tile_m, :] = same + col + col2 + flat[:, None] + wide.view(tile_m, -1)
    return out
)");
  INFO(ok->errors());
  REQUIRE_FALSE(ok->diags.has_errors());
  const std::string ir = ok->ir();
  CHECK(contains(ir,
                 "let col: tile_tensor<[tile_m, 1] x ?> = reshape(load w[tile_m], "
                 "(tile_m.block_size, 1))"));
  CHECK(contains(ir,
                 "let col2: tile_tensor<[tile_m, 1] x ?> = reshape(load w[tile_m], "
                 "(tile_m.block_size, 1))"));
  CHECK(contains(ir,
                 "let col3: tile_tensor<[1, tile_m, 1] x ?> = reshape(load w[tile_m], "
                 "(1, tile_m.block_size, 1))"));
  CHECK(contains(ir, "let flat: tile_tensor<[tile_m] x ?> = reshape(col, (tile_m.block_size,))"));
  // The same shape: no reshape at all.
  CHECK(contains(ir, "let same: tile_tensor<[tile_m, x.size(1)] x ?> = rows"));
  CHECK(contains(ir,
                 "let wide: tile_tensor<[1, tile_m, x.size(1)] x ?> = reshape(rows, (1, "
                 "tile_m.block_size, size(x, 1)))"));
}

TEST_CASE("a tile reshape that merges leading tiles gives them blocks of 1") {
  auto ok = lower(R"(@helion.kernel
def f(q: torch.Tensor) -> torch.Tensor:
    b, h, m, d = q.size()
    out = torch.empty_like(q)
    for tile_b, tile_h, tile_m in hl.tile([b, h, m]):
        rows = q[tile_b, tile_h, tile_m, :].reshape([-1, d])
        out[tile_b, tile_h, tile_m, :] = rows.reshape([1, 1, -1, d])
    return out
)");
  INFO(ok->errors());
  REQUIRE_FALSE(ok->diags.has_errors());
  const std::string ir = ok->ir();
  CHECK(contains(ir, "let rows: tile_tensor<[tile_m, q.size(3)] x ?> = reshape(reshape("));
  const helionc::ir::Kernel& kernel = ok->module.kernels.at(0);
  for (const helionc::ir::TileDim& dim : kernel.tile_dims) {
    // tile_b and tile_h merge into tile_m: fixed blocks of 1, kept; tile_m stays tunable.
    CHECK(dim.merged == (dim.name != "tile_m"));
    CHECK((dim.block.kind == helionc::ir::BlockSource::Kind::kFixed) == dim.merged);
  }
}

TEST_CASE("a tile reshape that cannot be proven to keep the element count is rejected") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        v = x[tile_m, tile_n]
        a = v.reshape(tile_n, tile_m)
        b = v.view(-1)
        c = v.reshape(tile_m, tile_n, tile_n)
        d = v.view(-1, -1)
        e = v.view(torch.int32)
        f = v.reshape(tile_m, x.size(1))
        out[tile_m, tile_n] = v
    return out
)");
  const std::string text = result->errors();
  CHECK(contains(text,
                 "k.py:11:13: error: cannot prove that `.reshape()` of a tile of shape "
                 "[tile_m, tile_n] to [tile_n, tile_m] keeps its element count: [tile_m] "
                 "and [tile_n] may differ in size (to reorder dimensions use `.permute` or "
                 "`.transpose`)"));
  CHECK(contains(text,
                 "k.py:12:13: error: `.view()` of a tile of shape [tile_m, tile_n] to [-1], "
                 "which merges `tile_m` into the dimension of `tile_n` and so needs blocks of 1 "
                 "along `tile_m`, where it is one of the block's last two dimensions"));
  CHECK(contains(text,
                 "k.py:13:13: error: `.reshape()` of a tile of shape [tile_m, tile_n] to "
                 "[tile_m, tile_n, tile_n] merges or splits dimensions"));
  CHECK(contains(text, "k.py:14:24: error: only one size can be -1"));
  CHECK(contains(text, "k.py:15:20: error: `.view()` to a dtype (a bitcast) on a tile"));
  CHECK(contains(text,
                 "k.py:16:13: error: cannot prove that `.reshape()` of a tile of shape "
                 "[tile_m, tile_n] to [tile_m, x.size(1)] keeps its element count: "
                 "[tile_n] and [x.size(1)] may differ in size\n"));
}

TEST_CASE("a tile reshape regroups whole axes and numbers between the tiles") {
  auto ok = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    m = x.size(0)
    out = torch.empty([m, 2, 64], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        rows = x[tile_m, :, :].reshape(tile_m, 128)
        halves = rows.view(tile_m, 2, -1)
        quads = halves.reshape(tile_m, 2, 4, -1)
        out[tile_m, :, :] = halves
    return out
)");
  INFO(ok->errors());
  REQUIRE_FALSE(ok->diags.has_errors());
  const std::string ir = ok->ir();
  CHECK(contains(ir,
                 "let rows: tile_tensor<[tile_m, 128] x ?> = reshape(load x[tile_m, :, :], "
                 "(tile_m.block_size, 128))"));
  // The -1 of literal sizes is their quotient; one whole axis left over is that axis.
  CHECK(contains(ir,
                 "let halves: tile_tensor<[tile_m, 2, 64] x ?> = reshape(rows, "
                 "(tile_m.block_size, 2, 64))"));
  CHECK(contains(ir, "check ((size(x, 1) * size(x, 2)) == 128)"));
  CHECK(contains(ir,
                 "let quads: tile_tensor<[tile_m, 2, 4, 16] x ?> = reshape(halves, "
                 "(tile_m.block_size, 2, 4, 16))"));

  auto bad = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    m = x.size(0)
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        v = x[tile_m, :, :]
        a = hl.zeros([tile_m, 4, 4]).view(tile_m, 8, 3)
        b = v.reshape(tile_m, -1)
        c = v.reshape(-1, x.size(2))
        out[tile_m, :, :] = v
    return out
)");
  const std::string text = bad->errors();
  CHECK(contains(text,
                 "k.py:11:13: error: `.view()` of a tile of shape [tile_m, 4, 4] to [tile_m, 8, 3] "
                 "changes its element count: 16 elements become 24"));
  CHECK(contains(text,
                 "k.py:12:13: error: `.reshape()` of a tile of shape [tile_m, x.size(1), "
                 "x.size(2)] to [tile_m, -1] where the -1 stands for a size computed from "
                 "others (x.size(1) * x.size(2)) is not supported yet"));
  CHECK(contains(text,
                 "k.py:13:13: error: `.reshape()` of a tile of shape [tile_m, x.size(1), "
                 "x.size(2)] to [-1, x.size(2)] merges or splits dimensions"));
}

TEST_CASE("a tile next to a tile of indices indexes independently, as in Helion") {
  // Helion types `logits[tile_n, labels[tile_n]]` by its indices one after the other (a 1-D
  // tensor index of a block-size dimension is not broadcast against the tile): [tile_n,
  // tile_n], every row's logits at every label of the block. One label per row is the
  // diagonal (or Helion's flat-view form, `logits.view(-1)[tile_n.index * v + labels]`).
  auto result = lower(R"(@helion.kernel
def f(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    n, v = logits.size()
    out = torch.empty([n], dtype=torch.float32, device=logits.device)
    for tile_n in hl.tile(n):
        g = logits[tile_n, labels[tile_n]]
        out[tile_n] = g.sum(-1)
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  CHECK(contains(result->ir(),
                 "let g: tile_tensor<[tile_n, tile_n] x ?> = "
                 "load logits[tile_n, gather load labels[tile_n]]"));
}
