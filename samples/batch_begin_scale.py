"""``tile.begin`` of a one-element tile as a scalar index: the loop tiles a batch axis with
blocks of one (fixed in the source) and indexes ``x``, ``scale`` and ``out`` at
``tile_b.begin``. helionc computes the index in the BlockSpecs' index maps (the block number
times the block size), so each step's blocks are one batch's rows."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def batch_begin_scale(x: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    """``x * scale[:, None, :]`` for ``x`` [b, m, n] and ``scale`` [b, n]."""
    b, m, _ = x.size()
    out = torch.empty_like(x)
    for tile_b, tile_m in hl.tile([b, m], block_size=[1, None]):
        out[tile_b.begin, tile_m, :] = x[tile_b.begin, tile_m, :] * scale[tile_b.begin, :]
    return out


def check(b: int, m: int, n: int) -> None:
    x = torch.randn([b, m, n], device="cuda")
    scale = torch.randn([b, n], device="cuda")
    torch.testing.assert_close(batch_begin_scale(x, scale), x * scale[:, None, :])


if __name__ == "__main__":
    check(4, 256, 384)
