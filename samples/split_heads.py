"""Heads split from a combined batch-and-heads axis: under `hl.grid`, `b = bh // heads` and
`h = bh % heads` are names computed in the kernel from the grid index, and index the output's
leading axes. They are functions of the grid index, so the output's BlockSpec index map
computes them (README, "Scalar indices computed in the kernel")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def split_heads(x: torch.Tensor, heads: int = 2) -> torch.Tensor:
    """``2 * x.reshape(bh // heads, heads, s, d)`` for ``x`` [bh, s, d]."""
    bh_count, s, d = x.size()
    out = torch.empty([bh_count // heads, heads, s, d], dtype=x.dtype, device=x.device)
    for bh in hl.grid(bh_count):
        b = bh // heads
        h = bh % heads
        for tile_s in hl.tile(s):
            out[b, h, tile_s, :] = x[bh, tile_s, :] * 2
    return out


def check(bh: int, s: int, d: int, heads: int) -> None:
    x = torch.randn([bh, s, d], device="cuda")
    torch.testing.assert_close(split_heads(x, heads), 2 * x.reshape(bh // heads, heads, s, d))


if __name__ == "__main__":
    check(6, 64, 128, 3)
