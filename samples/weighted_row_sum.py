"""Weighted row sums over an inner loop, with weights that may have size-1 axes: ``w`` is
[m, k], [1, k] (one weight row for every row) or [m, 1] (one weight per row), read as
``w[tile_m, tile_k]`` as Helion reads it, the size-1 axis broadcast along its tile. The inner
loop streams ``w``'s blocks under every strategy."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def weighted_row_sum(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """``(x * w).sum(-1)`` in float32 for x [m, k] and w broadcastable to it."""
    m, k = x.size()
    out = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m], dtype=torch.float32)
        for tile_k in hl.tile(k):
            acc = acc + (x[tile_m, tile_k] * w[tile_m, tile_k]).to(torch.float32).sum(-1)
        out[tile_m] = acc
    return out


def check(m: int, k: int) -> None:
    x = torch.randn([m, k], device="cuda")
    w = torch.randn([1, k], device="cuda")
    torch.testing.assert_close(weighted_row_sum(x, w), (x * w).sum(-1))


if __name__ == "__main__":
    check(1024, 1024)
