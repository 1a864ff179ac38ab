"""The left half of each row doubled, the right half shifted by one.

Exercises bounded slices of a tensor with a host-int bound (`x[tile_m, :half]`,
`out[tile_m, half:]`): the block is whole along the sliced axis and each access slices it. The
two stores chain from the axis's start to its end, so they cover the block and the old contents
of `out` (zeros) need not be read.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def column_halves(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    half = n // 2
    out = torch.zeros_like(x)
    for tile_m in hl.tile(m):
        out[tile_m, :half] = x[tile_m, :half] * 2.0
        out[tile_m, half:] = x[tile_m, half:] + 1.0
    return out


def check() -> None:
    x = torch.randn(1000, 300, device="cuda")
    expected = torch.cat([x[:, :150] * 2.0, x[:, 150:] + 1.0], dim=1)
    torch.testing.assert_close(column_halves(x), expected)


if __name__ == "__main__":
    check()
