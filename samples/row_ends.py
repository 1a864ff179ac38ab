"""Stores at single columns of tiled rows: every block of rows writes its sum into the last
column of ``out`` and three times its first element into column 0, two stores of one array
with different scalar indices on its last axis; the other columns keep ``out``'s initial
ones. helionc keeps the rows whole in the output's block (copied in from the old contents)
and writes each column with a lane select (README, "Stores that pick elements")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def row_ends(x: torch.Tensor) -> torch.Tensor:
    """Ones, except ``x.sum(1)`` in the last column and ``3 * x[:, 0]`` in the first."""
    m, n = x.size()
    out = torch.ones_like(x)
    for tile_m in hl.tile(m):
        out[tile_m, n - 1] = x[tile_m, :].sum(dim=1)
        out[tile_m, 0] = x[tile_m, 0] * 3.0
    return out


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    want = torch.ones_like(x)
    want[:, -1] = x.sum(1)
    want[:, 0] = 3 * x[:, 0]
    torch.testing.assert_close(row_ends(x), want, rtol=1e-4, atol=1e-4)


if __name__ == "__main__":
    check(256, 384)
