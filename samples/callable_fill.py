"""A callable passed at run time that takes tiles and a dtype and no tile value (Helion's
test_rng ``rng_func(tile_m, tile_n, dtype)``): helionc types its result by the tiles' shape and
the dtype argument, and checks the real result against that while JAX traces the kernel. The
row loop starts at 1, so a first block holds a row before the loop's range: a tile's `index`
is each element's global index as the block lays them out, its `begin` the first valid one."""

from __future__ import annotations

from typing import Callable

import torch
from torch import Tensor

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def callable_fill(x: Tensor, fill: Callable[[object, object, torch.dtype], Tensor]) -> Tensor:
    """``x + fill(tile_m, tile_n, x.dtype)`` below the first row, block by block; row 0 zeros."""
    m, n = x.size()
    out = torch.zeros_like(x)
    for tile_m, tile_n in hl.tile([1, 0], [m, n]):
        out[tile_m, tile_n] = x[tile_m, tile_n] + fill(tile_m, tile_n, x.dtype)
    return out


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    fill = lambda tm, tn, dtype: (tm.index[:, None] - tn.index[None, :]).to(dtype)
    rows, cols = torch.arange(m, device="cuda"), torch.arange(n, device="cuda")
    expected = x + (rows[:, None] - cols[None, :]).float()
    expected[0] = 0
    torch.testing.assert_close(callable_fill(x, fill), expected)


if __name__ == "__main__":
    check(48, 48)
