"""Offsets from each chunk's first row, per head: `g[b, t.begin, h]` reads one element at the
inner loop's position (it moves inside the kernel: picked from the block, whole along the rows)
of one column (`h`, a lane window), and `g[b, t, h]` a column of the rows of the inner loop's
tile. `b` and `h` are names computed in the kernel from the outer tiles (README, "Scalar
indices computed in the kernel")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def chunk_column_offsets(g: torch.Tensor) -> torch.Tensor:
    """``g[b, s, h] - g[b, s // 8 * 8, h]`` for ``g`` [batch, seq, heads]: chunks of 8 rows."""
    batch, seq, heads = g.size()
    out = torch.empty_like(g)
    for tile_b, tile_h in hl.tile([batch, heads], block_size=[1, 1]):
        b = tile_b.begin
        h = tile_h.begin
        for t in hl.tile(seq, block_size=8):
            first = g[b, t.begin, h]
            out[b, t, h] = g[b, t, h] - first
    return out


def check(batch: int, seq: int, heads: int) -> None:
    g = torch.randn([batch, seq, heads], device="cuda")
    first = g[:, torch.arange(seq, device="cuda") // 8 * 8, :]
    torch.testing.assert_close(chunk_column_offsets(g), g - first)


if __name__ == "__main__":
    check(2, 64, 3)
