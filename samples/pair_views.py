"""The mean of each row's adjacent column pairs.

Exercises `.reshape()` that splits a whole axis of the block (`x[tile_m, :]`, 64 wide) into
literal sizes (32 pairs of 2): the tile stays, the whole axis is regrouped, and the module
checks at trace time that `x.size(1)` is the 64 the split needs.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def pair_views(x: torch.Tensor) -> torch.Tensor:
    m, _ = x.size()
    out = torch.empty([m, 32], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        pairs = x[tile_m, :].to(torch.float32).reshape(tile_m, 32, 2)
        out[tile_m, :] = (pairs.sum(-1) * 0.5).to(out.dtype)
    return out


def check() -> None:
    x = torch.randn(1000, 64, device="cuda")
    torch.testing.assert_close(pair_views(x), x.view(1000, 32, 2).mean(-1))


if __name__ == "__main__":
    check()
