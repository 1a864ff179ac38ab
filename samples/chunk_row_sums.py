"""Rows of a chunk read through an offset window: `x[b, tile_c.begin * chunk + tile_k.index, h,
tile_d]` (as Helion's mamba2 examples read their chunks). The window's rows are a gather along
the sequence, whose axis is whole in the block, beside scalar indices of the outer tiles that
the BlockSpec's index map computes (README, "Scalar indices computed in the kernel")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def chunk_row_sums(x: torch.Tensor, chunk: int = 12) -> torch.Tensor:
    """``x.reshape(batch, seq // chunk, chunk, heads, d).sum(2)`` for ``x`` [batch, seq, heads,
    d], summed in float32."""
    batch, seq, heads, d = x.size()
    nchunks = seq // chunk
    out = torch.empty([batch, nchunks, heads, d], dtype=x.dtype, device=x.device)
    for tile_b, tile_h, tile_c, tile_d in hl.tile(
        [batch, heads, nchunks, d], block_size=[1, 1, 1, None]
    ):
        acc = hl.zeros([tile_d], dtype=torch.float32)
        for tile_k in hl.tile(chunk):
            rows = x[tile_b.begin, tile_c.begin * chunk + tile_k.index, tile_h.begin, tile_d]
            acc = acc + rows.to(torch.float32).sum(dim=0)
        out[tile_b.begin, tile_c.begin, tile_h.begin, tile_d] = acc.to(x.dtype)
    return out


def check(batch: int, seq: int, heads: int, d: int, chunk: int) -> None:
    x = torch.randn([batch, seq, heads, d], device="cuda")
    expected = x.reshape(batch, seq // chunk, chunk, heads, d).sum(2)
    torch.testing.assert_close(chunk_row_sums(x, chunk), expected)


if __name__ == "__main__":
    check(2, 48, 3, 128, 12)
