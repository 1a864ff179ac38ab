"""Stores at several rows of one array from one loop: each block of columns writes row 0 and
row 2 of ``out`` (two stores with different scalar indices on its first axis) and leaves row 1
at its initial value. helionc keeps the three rows in the output's block, starts it from the
old contents at each step and writes each row with a sublane select (README, "Stores that pick
elements"). Indexing with ``tile_n.index`` is indexing with ``tile_n``, not a scatter."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def stacked_rows(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """A [3, n] array: ``x``, then -1 (untouched), then ``2 * y``."""
    (n,) = x.size()
    out = torch.full([3, n], -1.0, dtype=x.dtype, device=x.device)
    for tile_n in hl.tile(n):
        out[0, tile_n.index] = x[tile_n]  # `tile.index` selects what the tile does
        out[2, tile_n] = y[tile_n] * 2.0
    return out


def check(n: int) -> None:
    x = torch.randn([n], device="cuda")
    y = torch.randn([n], device="cuda")
    want = torch.stack([x, torch.full_like(x, -1.0), 2 * y])
    torch.testing.assert_close(stacked_rows(x, y), want)


if __name__ == "__main__":
    check(1000)
