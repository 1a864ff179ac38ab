// Lowering of matrix products (torch.matmul/mm/bmm/addmm/baddbmm, `@`, `.matmul()`, hl.dot):
// their types, the transposes folded into them, and their diagnostics; and of callable
// parameters with a lambda default (`epilogue=lambda acc, tile: acc`), inlined where called.
#include <catch2/catch.hpp>

#include "lowering_fixture.h"

using helionc::testing::contains;
using helionc::testing::lower;

namespace {

// A kernel over [m, n] tiles of x [m, k] and y [k, n] with `body` inside the loop (8 spaces).
std::string kernel_with(const std::string& body, const std::string& params = "") {
  return "@helion.kernel\n"
         "def f(x: torch.Tensor, y: torch.Tensor" +
         params +
         ") -> torch.Tensor:\n"
         "    m, k = x.size()\n"
         "    n = y.size(1)\n"
         "    out = torch.empty([m, n], dtype=torch.float32, device=x.device)\n"
         "    for tile_m, tile_n in hl.tile([m, n]):\n" +
         body + "    return out\n";
}

}  // namespace

TEST_CASE("torch products keep the operands' dtype, computed in float32") {
  auto result = lower(kernel_with(R"(        a = x[tile_m, :].to(torch.bfloat16)
        b = y[:, tile_n].to(torch.bfloat16)
        p = a @ b
        q = torch.matmul(a, b)
        r = torch.mm(a.float(), b.float())
        s = a.matmul(b)
        t = x[tile_m, :] @ y[:, tile_n]
        out[tile_m, tile_n] = p + q + r + s + t
)"));
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  CHECK(contains(ir,
                 "let p: tile_tensor<[tile_m, tile_n] x bfloat16> = cast(dot(a, 1, b, 0, "
                 "None), bfloat16)"));
  CHECK(contains(ir,
                 "let q: tile_tensor<[tile_m, tile_n] x bfloat16> = cast(dot(a, 1, b, 0, "
                 "None), bfloat16)"));
  // float32 operands: the accumulation dtype is the result, no cast.
  CHECK(contains(ir,
                 "let r: tile_tensor<[tile_m, tile_n] x float32> = dot(cast(a, float32), 1, "
                 "cast(b, float32), 0, None)"));
  CHECK(contains(ir, "let s: tile_tensor<[tile_m, tile_n] x bfloat16> = cast(dot(a, 1, b"));
  // Dtypes known only at trace time: the promoted dtype of the arrays, read from their refs.
  CHECK(contains(ir,
                 "let t: tile_tensor<[tile_m, tile_n] x ?> = cast(dot(load x[tile_m, :], 1, "
                 "load y[:, tile_n], 0, None), promote_types(dtype_of(x), dtype_of(y)))"));
}

TEST_CASE("hl.dot follows Helion: float32 (int32 for int8), out_dtype, acc in acc's dtype") {
  auto result = lower(kernel_with(R"(        a = x[tile_m, :].to(torch.float16)
        b = y[:, tile_n].to(torch.float16)
        p = hl.dot(a, b)
        q = hl.dot(a, b, out_dtype=torch.float16)
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        acc = hl.dot(a, b, acc=acc)
        half = hl.zeros([tile_m, tile_n], dtype=torch.float16)
        half = hl.dot(a, b, half)
        i = hl.dot(x[tile_m, :].to(torch.int8), y[:, tile_n].to(torch.int8))
        mixed = hl.dot(a, y[:, tile_n].to(torch.float32))
        out[tile_m, tile_n] = p + q + acc + half + i + mixed
)"));
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  CHECK(contains(ir, "let p: tile_tensor<[tile_m, tile_n] x float32> = dot(a, 1, b, 0, None)"));
  CHECK(contains(ir,
                 "let q: tile_tensor<[tile_m, tile_n] x float16> = cast(dot(a, 1, b, 0, "
                 "None), float16)"));
  CHECK(contains(ir,
                 "let acc.1: tile_tensor<[tile_m, tile_n] x float32> = (acc + dot(a, 1, b, 0, "
                 "None))"));
  CHECK(contains(ir,
                 "let half.1: tile_tensor<[tile_m, tile_n] x float16> = cast((half + dot(a, 1, "
                 "b, 0, None)), float16)"));
  CHECK(contains(ir, "let i: tile_tensor<[tile_m, tile_n] x int32> = dot("));
  // Operands of different dtypes are promoted (by the backend), the product stays float32.
  CHECK(contains(ir, "let mixed: tile_tensor<[tile_m, tile_n] x float32> = dot(a, 1, cast("));
}

TEST_CASE("torch.addmm and torch.baddbmm accumulate in the accumulator's dtype") {
  auto two = lower(kernel_with(R"(        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        acc = torch.addmm(acc, x[tile_m, :], y[:, tile_n])
        low = hl.zeros([tile_m, tile_n], dtype=torch.bfloat16)
        low = torch.addmm(low, x[tile_m, :], y[:, tile_n])
        out[tile_m, tile_n] = acc + low
)"));
  INFO(two->errors());
  REQUIRE_FALSE(two->diags.has_errors());
  CHECK(contains(two->ir(),
                 "let acc.1: tile_tensor<[tile_m, tile_n] x float32> = (acc + dot(load "
                 "x[tile_m, :], 1, load y[:, tile_n], 0, None))"));
  CHECK(contains(two->ir(),
                 "let low.1: tile_tensor<[tile_m, tile_n] x bfloat16> = cast((low + "
                 "dot(load x[tile_m, :], 1, load y[:, tile_n], 0, None)), bfloat16)"));

  auto ok = lower(R"(@helion.kernel
def f(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    b, m, k = x.size()
    n = y.size(2)
    out = torch.empty([b, m, n], dtype=torch.float32, device=x.device)
    for tile_b, tile_m, tile_n in hl.tile([b, m, n]):
        acc = hl.zeros([tile_b, tile_m, tile_n], dtype=torch.bfloat16)
        acc = torch.baddbmm(acc, x[tile_b, tile_m, :], y[tile_b, :, tile_n], beta=0)
        acc2 = hl.zeros([tile_b, tile_m, tile_n], dtype=torch.float32)
        acc2 = torch.baddbmm(acc2, x[tile_b, tile_m, :], y[tile_b, :, tile_n], beta=0.5, alpha=2)
        out[tile_b, tile_m, tile_n] = acc + acc2
    return out
)");
  INFO(ok->errors());
  REQUIRE_FALSE(ok->diags.has_errors());
  const std::string ir = ok->ir();
  // beta=0 drops the accumulator (as PyTorch does); the result keeps its dtype.
  CHECK(contains(ir,
                 "let acc.1: tile_tensor<[tile_b, tile_m, tile_n] x bfloat16> = cast(dot(load "
                 "x[tile_b, tile_m, :], 2, load y[tile_b, :, tile_n], 1, (0, 0)), bfloat16)"));
  CHECK(contains(ir,
                 "let acc2.1: tile_tensor<[tile_b, tile_m, tile_n] x float32> = ((0.5 * acc2) "
                 "+ (2 * dot(load x[tile_b, tile_m, :], 2, load y[tile_b, :, tile_n], 1, (0, "
                 "0))))"));
}

TEST_CASE("transposes feeding a product are folded into its axes") {
  auto result = lower(R"(@helion.kernel
def f(q: torch.Tensor, k: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    b, m, d = q.size()
    n = k.size(1)
    out = torch.empty([b, m, n], dtype=torch.float32, device=q.device)
    for tile_b, tile_m, tile_n in hl.tile([b, m, n]):
        s = torch.bmm(q[tile_b, tile_m, :], k[tile_b, tile_n, :].transpose(1, 2))
        t = q[tile_b, tile_m, :] @ k[tile_b, tile_n, :].permute(0, 2, 1)
        u = hl.dot(k[tile_b, tile_n, :].transpose(1, 2).transpose(1, 2), q[tile_b, tile_m, :].permute(0, 2, 1))
        v = hl.dot(w[tile_m, :], w[tile_n, :].T)
        out[tile_b, tile_m, tile_n] = s + t + u.transpose(1, 2) + v[None, :, :]
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  CHECK(contains(ir,
                 "= cast(dot(load q[tile_b, tile_m, :], 2, load k[tile_b, tile_n, :], 2, (0, "
                 "0)), promote_types(dtype_of(q), dtype_of(k)))"));
  CHECK(contains(ir,
                 "let t: tile_tensor<[tile_b, tile_m, tile_n] x ?> = cast(dot(load "
                 "q[tile_b, tile_m, :], 2, load k[tile_b, tile_n, :], 2, (0, 0))"));
  // A double transpose is none; the permuted right operand contracts its last axis.
  CHECK(contains(ir,
                 "let u: tile_tensor<[tile_b, tile_n, tile_m] x ?> = dot(load k[tile_b, "
                 "tile_n, :], 2, load q[tile_b, tile_m, :], 2, (0, 0))"));
  CHECK(contains(ir,
                 "let v: tile_tensor<[tile_m, tile_n] x ?> = dot(load w[tile_m, :], 1, load "
                 "w[tile_n, :], 1, None)"));
}

TEST_CASE("products with mismatched or unsupported operands are reported precisely") {
  auto result = lower(kernel_with(R"(        a = x[tile_m, :] @ y[tile_m, tile_n]
        b = torch.bmm(x[tile_m, :], y[:, tile_n])
        c = torch.matmul(x[tile_m, :].to(torch.bfloat16), y[:, tile_n].to(torch.float32))
        d = hl.dot(x[tile_m, :], y[:, tile_n], acc=hl.zeros([tile_m, tile_n], dtype=torch.bfloat16))
        e = torch.addmm(hl.zeros([tile_m, tile_n]), x[tile_m, :], y[:, tile_n], beta=bias)
        g = torch.matmul(x[tile_m, :], y)
        h = torch.matmul(x[tile_m, :], bias[tile_n])
        i = x[tile_m, :].to(torch.int8) @ y[:, tile_n].to(torch.int8)
        j = hl.dot(x[tile_m, :].to(torch.int8), y[:, tile_n].to(torch.int8), acc=hl.zeros([tile_m, tile_n]))
        l = hl.dot(x[tile_m, :], y[:, tile_n], acc=hl.zeros([tile_n, tile_m]))
        o = torch.mm(x[tile_m, :].to(torch.int32), y[:, tile_n].to(torch.int32))
        out[tile_m, tile_n] = x[tile_m, tile_n]
    p = torch.matmul(x, y)
)",
                                  ", bias: torch.Tensor"));
  const std::string text = result->errors();
  INFO(text);
  CHECK(contains(text,
                 "k.py:11:13: error: `@` contracts `x.size(1)` (the left operand's last "
                 "dimension) with `tile_m` (the right operand's first dimension): the contracted "
                 "dimensions must be the same tile, or both whole dimensions"));
  CHECK(contains(text,
                 "k.py:12:13: error: `torch.bmm` multiplies 3-D (batched) tiles, not tiles "
                 "of rank 2 and 2"));
  CHECK(contains(text,
                 "k.py:13:13: error: `torch.matmul` needs operands of one dtype, not "
                 "`bfloat16` and `float32` (as in PyTorch)"));
  CHECK(contains(text,
                 "k.py:14:52: error: `acc` of `hl.dot` must be float32, float16 or int32 "
                 "(as in Helion), not `bfloat16`"));
  CHECK(contains(text,
                 "k.py:15:86: error: `beta=` other than a number literal is not supported "
                 "yet"));
  CHECK(contains(text, "k.py:16:40: error: `torch.matmul` multiplies tiles; index the tensor"));
  CHECK(contains(text,
                 "k.py:17:13: error: `torch.matmul` multiplies two 2-D tiles or two 3-D "
                 "(batched) tiles, not tiles of rank 2 and 1"));
  CHECK(contains(text,
                 "k.py:18:13: error: `@` of int8 values is not supported; `hl.dot` "
                 "multiplies int8 matrices into int32"));
  CHECK(contains(text,
                 "k.py:19:82: error: `hl.dot` of int8 operands needs an int32 `acc`, not "
                 "`float32`"));
  CHECK(contains(text,
                 "k.py:20:52: error: `acc` of shape [tile_n, tile_m] does not match the "
                 "product's shape [tile_m, tile_n]"));
  CHECK(contains(text,
                 "k.py:21:22: error: `torch.mm` of `int32` values is not supported: TPUs "
                 "multiply floating-point and int8 matrices"));
  CHECK(contains(text,
                 "k.py:23:9: error: `torch.matmul` in host code (outside `hl.tile` loops) "
                 "is not supported yet"));
}

TEST_CASE("a lambda default is inlined where it is called and leaves the signature") {
  auto result = lower(kernel_with(
      R"(        acc = x[tile_m, :] @ y[:, tile_n]
        out[tile_m, tile_n] = epilogue(acc, (tile_m, tile_n))
        out[tile_m, tile_n] = plain(tile=(tile_m, tile_n), acc=acc)
)",
      ", epilogue: Callable[[torch.Tensor, tuple[torch.Tensor, ...]], torch.Tensor] = lambda "
      "acc, tile: torch.relu(acc) * 2.0 + tile[1].index, plain=lambda acc, tile: acc"));
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  CHECK(contains(ir, "kernel f(x: tensor<2 x ?>, y: tensor<2 x ?>) {"));
  CHECK(contains(ir, "store out[tile_m, tile_n] = ((relu(acc) * 2.0) + tile_n.index)"));
  CHECK(contains(ir, "store out[tile_m, tile_n] = acc  #"));
}

TEST_CASE("a lambda default sees module-level names only, and is only called") {
  auto result = lower(kernel_with(
      R"(        out[tile_m, tile_n] = epilogue(x[tile_m, tile_n], (tile_m, tile_n))
        out[tile_m, tile_n] = other(x[tile_m, tile_n], (tile_m, tile_n))
        out[tile_m, tile_n] = epilogue(x[tile_m, tile_n])
        out[tile_m, tile_n] = epilogue(x[tile_m, tile_n], (tile_m, tile_n), 1)
        out[tile_m, tile_n] = epilogue
)",
      ", bias: torch.Tensor, epilogue=lambda acc, tile: acc + bias[tile[1]], other=lambda acc, "
      "tile: acc * SCALE"));
  const std::string text = result->errors();
  INFO(text);
  CHECK(contains(text,
                 "k.py:6:94: error: `bias` in the lambda default of `epilogue` is not the "
                 "kernel's `bias`: a default is evaluated where the kernel is defined"));
  CHECK(contains(text, "k.py:11:31: note: `epilogue` is inlined here"));
  CHECK(contains(text, "k.py:12:31: note: `other` is inlined here"));
  CHECK(contains(
      text,
      "k.py:6:139: error: the module-level name `SCALE` in the lambda default of `other` is "
      "not supported yet"));
  CHECK(contains(text, "k.py:13:31: error: `epilogue` is called without its argument `tile`"));
  CHECK(contains(text, "k.py:14:31: error: `epilogue` takes 2 arguments but 3 were given"));
  CHECK(contains(text,
                 "k.py:15:31: error: `epilogue` is a callable parameter: helionc inlines "
                 "its lambda where it is called, so it can only be called"));

  auto other_default = lower(R"(@helion.kernel
def f(x: torch.Tensor, epilogue: Callable[[torch.Tensor], torch.Tensor] = torch.relu) -> torch.Tensor:
    return x
)");
  CHECK(contains(other_default->errors(),
                 "error: the default of the callable parameter `epilogue` must be a lambda"));
}

TEST_CASE("a callable without a default is a parameter, called where the kernel calls it") {
  auto result = lower(kernel_with(
      R"(        acc = (x[tile_m, :] @ y[:, tile_n]).float()
        acc = epilogue(acc, (tile_m, tile_n))
        out[tile_m, tile_n] = acc * 2.0
)",
      ", epilogue: Callable[[torch.Tensor, tuple[torch.Tensor, ...]], torch.Tensor]"));
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  CHECK(contains(ir, "kernel f(x: tensor<2 x ?>, y: tensor<2 x ?>, epilogue: callable) {"));
  // Typed as its first tile value (float32), tiles as call_tile objects.
  CHECK(contains(ir,
                 "let acc.1: tile_tensor<[tile_m, tile_n] x float32> = call_param(epilogue, "
                 "(acc, (call_tile(tile_m.begin, tile_m.end, tile_m.block_size, tile_m.id, "
                 "tile_m.index), call_tile(tile_n.begin, tile_n.end, tile_n.block_size, "
                 "tile_n.id, tile_n.index))), float32)"));
}

TEST_CASE("a callable's result stored directly into a fresh output is applied after the launch") {
  auto stored = lower(kernel_with(
      R"(        out[tile_m, tile_n] = epilogue((x[tile_m, :] @ y[:, tile_n]).float(), (tile_m, tile_n)).to(torch.float16)
)",
      ", epilogue: Callable[[torch.Tensor, tuple[torch.Tensor, ...]], torch.Tensor]"));
  INFO(stored->errors());
  REQUIRE_FALSE(stored->diags.has_errors());
  const std::string ir = stored->ir();
  // The launch stores the tile value into the allocation, now of its dtype; the output's name
  // is bound to the call on that whole array, with whole-axis tiles, in the output's dtype.
  CHECK(contains(ir, "alloc out.1: tensor<2 x float32> shape (m, n) dtype float32"));
  CHECK(contains(ir, "store out.1[tile_m, tile_n] = cast("));
  CHECK(contains(ir,
                 "let out: tensor<2 x float32> = cast(cast(call_param(epilogue, (out.1, "
                 "(call_tile(0, m, m, 0, None), call_tile(0, n, n, 0, None))), float32), float16), "
                 "float32)"));

  // Stored twice in the launch: the call stays in the kernel.
  auto twice = lower(kernel_with(
      R"(        acc = (x[tile_m, :] @ y[:, tile_n]).float()
        out[tile_m, tile_n] = acc
        out[tile_m, tile_n] = epilogue(acc, (tile_m, tile_n))
)",
      ", epilogue: Callable[[torch.Tensor, tuple[torch.Tensor, ...]], torch.Tensor]"));
  INFO(twice->errors());
  REQUIRE_FALSE(twice->diags.has_errors());
  CHECK(contains(twice->ir(), "store out[tile_m, tile_n] = call_param(epilogue, (acc, "));
}
