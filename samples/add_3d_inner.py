"""An outer tile loop over the batch with a two-dimensional inner tile loop (the shape of
Helion's Pallas tests' ``add_3d``): the inner loop walks the blocks of both of its dimensions,
and its last blocks along each are partial when the blocks do not divide the shape."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def add_3d(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """``x + y`` for ``x`` and ``y`` [b, m, n]."""
    b, m, n = x.size()
    out = torch.empty_like(x)
    for tile_b in hl.tile(b):
        for tile_m, tile_n in hl.tile([m, n]):
            out[tile_b, tile_m, tile_n] = x[tile_b, tile_m, tile_n] + y[tile_b, tile_m, tile_n]
    return out


def check(b: int, m: int, n: int) -> None:
    x = torch.randn([b, m, n], device="cuda")
    y = torch.randn([b, m, n], device="cuda")
    torch.testing.assert_close(add_3d(x, y), x + y)


if __name__ == "__main__":
    check(4, 70, 130)
