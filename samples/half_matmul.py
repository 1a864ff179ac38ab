"""A matrix product accumulated in float16: the operands cast to float16 in the kernel, a
float16 ``acc`` (``hl.zeros(..., dtype=torch.float16)``) carried across the K tiles by
``hl.dot(..., acc=acc)``, and a float16 result whatever the inputs' dtype.

TPUs have no float16 vector unit: the module holds float16 values in float32 inside the kernel
(its loads, the accumulator and its scratch, the product's operands) and rounds them to float16
where the result leaves the kernel."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def half_matmul(x: torch.Tensor, y: torch.Tensor, scale: float = 1.0) -> torch.Tensor:
    """``(x @ y) * scale`` in float16 for x [m, k] and y [k, n] of 16-bit floats."""
    m, k = x.size()
    _, n = y.size()
    out = torch.empty([m, n], dtype=torch.float16, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float16)
        for tile_k in hl.tile(k):
            a = x[tile_m, tile_k].to(torch.float16)
            b = y[tile_k, tile_n].to(torch.float16)
            acc = hl.dot(a, b, acc=acc)
        out[tile_m, tile_n] = acc * scale
    return out


def check(m: int, k: int, n: int) -> None:
    x = torch.randn([m, k], device="cuda", dtype=torch.float16)
    y = torch.randn([k, n], device="cuda", dtype=torch.bfloat16)
    expected = x @ y.to(torch.float16)
    torch.testing.assert_close(half_matmul(x, y), expected, rtol=1e-2, atol=1e-2)


if __name__ == "__main__":
    check(512, 512, 512)
