"""Shapes built from pieces of others: ``x.shape[1:]`` (a slice of a shape keeps each size
symbolic) unpacked into names, and ``[batch, *x.shape[1:]]`` (a shape spliced into a list)."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def add_plane(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """``x + y`` for ``x`` [b, m, n] and ``y`` [m, n], broadcast over the batch."""
    batch, _, _ = x.size()
    rows, cols = x.shape[1:]
    out = torch.empty([batch, *x.shape[1:]], dtype=x.dtype, device=x.device)
    for tile_b, tile_m, tile_n in hl.tile([batch, rows, cols]):
        out[tile_b, tile_m, tile_n] = x[tile_b, tile_m, tile_n] + y[tile_m, tile_n]
    return out


def check(b: int, m: int, n: int) -> None:
    x = torch.randn([b, m, n], device="cuda")
    y = torch.randn([m, n], device="cuda")
    torch.testing.assert_close(add_plane(x, y), x + y)


if __name__ == "__main__":
    check(4, 256, 512)
