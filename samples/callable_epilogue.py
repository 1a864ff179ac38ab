"""A callable passed at run time whose result is stored directly (Helion's test_pallas
``matmul_custom``): ``out[tile_m, tile_n] = epilogue(acc, (tile_m, tile_n))``. The callable
may read arrays it closes over (``lambda acc, tile: acc + bias[tile[1]]``), which a Pallas
kernel cannot, so helionc applies it on the host after the kernel: the kernel stores ``acc``
into an intermediate of acc's dtype, and the host calls ``epilogue`` once on the whole array,
with tiles that span whole axes (and index arrays as Helion's tiles do), then casts the
result to the output's dtype."""

from __future__ import annotations

from typing import Callable

import torch
from torch import Tensor

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def callable_epilogue(
    x: Tensor, y: Tensor, epilogue: Callable[[Tensor, tuple[Tensor, ...]], Tensor]
) -> Tensor:
    """``epilogue(x @ y, tiles)`` in x's dtype."""
    m, k = x.size()
    _, n = y.size()
    out = torch.empty([m, n], device=x.device, dtype=x.dtype)
    for tile_m, tile_n in hl.tile([m, n]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for tile_k in hl.tile(k):
            acc = torch.addmm(acc, x[tile_m, tile_k], y[tile_k, tile_n])
        out[tile_m, tile_n] = epilogue(acc, (tile_m, tile_n))
    return out


def check(m: int, k: int, n: int) -> None:
    x = torch.randn([m, k], device="cuda", dtype=torch.bfloat16)
    y = torch.randn([k, n], device="cuda", dtype=torch.bfloat16)
    bias = torch.randn([n], device="cuda", dtype=torch.bfloat16)
    result = callable_epilogue(x, y, lambda acc, tile: acc + bias[tile[1]])
    expected = (x.float() @ y.float() + bias.float()).to(torch.bfloat16)
    torch.testing.assert_close(result, expected, rtol=1e-2, atol=1e-2)


if __name__ == "__main__":
    check(1024, 1024, 1024)
