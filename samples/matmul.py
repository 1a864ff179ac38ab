"""Matrix multiplication with an inner loop over K (Helion's examples/matmul.py): a float32
accumulator carried across the K tiles with ``torch.addmm``, then Helion's ``epilogue``
parameter (a lambda default that the compiler inlines) applied to it before the store."""

from __future__ import annotations

from typing import Callable

import torch
from torch import Tensor

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def matmul(
    x: Tensor,
    y: Tensor,
    epilogue: Callable[[Tensor, tuple[Tensor, ...]], Tensor] = lambda acc, tile: acc,
) -> Tensor:
    """``epilogue(x @ y, tiles)`` for x of shape [m, k] and y of shape [k, n]."""
    m, k = x.size()
    k2, n = y.size()
    assert k == k2, f"size mismatch {k} != {k2}"
    out = torch.empty([m, n], dtype=torch.promote_types(x.dtype, y.dtype), device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for tile_k in hl.tile(k):
            acc = torch.addmm(acc, x[tile_m, tile_k], y[tile_k, tile_n])
        out[tile_m, tile_n] = epilogue(acc, (tile_m, tile_n))
    return out


def check(m: int, k: int, n: int) -> None:
    x = torch.randn([m, k], device="cuda", dtype=torch.float16)
    y = torch.randn([k, n], device="cuda", dtype=torch.float16)
    torch.testing.assert_close(matmul(x, y), torch.matmul(x, y))


if __name__ == "__main__":
    check(1024, 1024, 1024)
