"""Stores of slices that leave part of an axis unwritten: each block of rows writes its first 16
columns and, when ``fill_tail`` holds, the columns from 32 on; the others keep ``out``'s
initial ones. A block is whole along the sliced axis and goes back to the array whole, so
helionc starts it from the array's old contents (copied in from the aliased input) before the
stores write their slices (README, "Stores that pick elements")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def slice_gaps(x: torch.Tensor, fill_tail: bool = True) -> torch.Tensor:
    """Ones, except ``2 * x`` in the first 16 columns and ``x`` from column 32 on (if
    ``fill_tail``)."""
    m, _ = x.size()
    out = torch.ones_like(x)
    for tile_m in hl.tile(m):
        out[tile_m, :16] = x[tile_m, :16] * 2.0
        if fill_tail:
            out[tile_m, 32:] = x[tile_m, 32:]
    return out


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    want = torch.ones_like(x)
    want[:, :16] = 2 * x[:, :16]
    want[:, 32:] = x[:, 32:]
    torch.testing.assert_close(slice_gaps(x), want)


if __name__ == "__main__":
    check(256, 384)
