"""The lower triangle of a matrix (`torch.tril`): a value that depends on each element's position.

Every block builds its rows' and columns' indices with ``hl.arange(tile.block_size)`` offset by
the block's start, and keeps the elements on or below the diagonal.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def tril(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        rows = tile_m.begin + hl.arange(tile_m.block_size)
        cols = tile_n.begin + hl.arange(0, tile_n.block_size)
        below = cols[None, :] <= rows[:, None]
        out[tile_m, tile_n] = torch.where(below, x[tile_m, tile_n], 0.0)
    return out


def check() -> None:
    x = torch.randn(1000, 300, device="cuda")
    torch.testing.assert_close(tril(x), torch.tril(x))


if __name__ == "__main__":
    check()
