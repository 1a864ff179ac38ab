"""A kernel that reads only its argument's shape and dtype: every element of a fresh array like
`x` is its row index plus a constant, so the launch takes no array at all. Compiled for a TPU
topology from a host without one, the module must still compile for that TPU (the caller's jit
would otherwise drop `x`, the only argument, and compile for the host's CPU)."""

from __future__ import annotations

import torch
from torch import Tensor

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def shape_only_fill(x: Tensor) -> Tensor:
    """``out[i, j] = i + 0.5`` in x's dtype, for an ``out`` shaped like ``x``."""
    rows, cols = x.shape
    out = torch.empty_like(x)
    for tile_r, tile_c in hl.tile([rows, cols]):
        row = tile_r.index.to(torch.float32)[:, None] + 0.5
        out[tile_r, tile_c] = (row + hl.zeros([tile_r, tile_c], dtype=torch.float32)).to(x.dtype)
    return out


def check(rows: int, cols: int) -> None:
    x = torch.randn([rows, cols], device="cuda")
    expected = (torch.arange(rows, device="cuda", dtype=torch.float32)[:, None] + 0.5).expand(
        rows, cols
    )
    torch.testing.assert_close(shape_only_fill(x), expected)


if __name__ == "__main__":
    check(40, 300)
