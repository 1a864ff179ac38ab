"""Each row's heads merged into one axis and split again in halves, less each half's maximum.

Exercises `.reshape()`/`.view()` that merge whole axes of the block (`x[tile_m, :, :]`, 4 x 32)
into one of 128 and split it into 2 halves of 64 (the -1 inferred from the numbers), then a
reduction and a slice along the literal sizes. The module checks at trace time that
`x.size(1) * x.size(2)` is 128.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def merge_views(x: torch.Tensor) -> torch.Tensor:
    m = x.size(0)
    out = torch.empty([m, 2, 64], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        rows = x[tile_m, :, :].reshape(tile_m, 128)
        halves = rows.view(tile_m, 2, -1)
        shifted = halves - halves.amax(dim=-1, keepdim=True)
        out[tile_m, :, :] = shifted + halves[:, 1:2, :]
    return out


def check() -> None:
    x = torch.randn(1000, 4, 32, device="cuda")
    halves = x.reshape(1000, 2, 64)
    expected = halves - halves.amax(-1, keepdim=True) + halves[:, 1:2, :]
    torch.testing.assert_close(merge_views(x), expected)


if __name__ == "__main__":
    check()
