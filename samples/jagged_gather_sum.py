"""Segment sums of a packed 1-D array, one segment per row of a block: out[g] =
x[offsets[g]:offsets[g + 1]].sum().

Each row gathers its own elements (`starts[:, None] + tile_k.index[None, :]`) for as many
steps as the longest segment of the block; a row's indices past its own end point into the
next segment (or past the array) and read as 0.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def jagged_gather_sum(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    """For 1-D x and int offsets [segments + 1] (sorted, from 0 to x's length); float32 sums."""
    segments = offsets.size(0) - 1
    out = torch.empty([segments], dtype=torch.float32, device=x.device)
    for tile_g in hl.tile(segments):
        starts = offsets[tile_g]
        ends = offsets[tile_g.index + 1]
        acc = hl.zeros([tile_g], dtype=torch.float32)
        for tile_k in hl.jagged_tile(ends - starts):
            acc = acc + x[starts[:, None] + tile_k.index[None, :]].to(torch.float32).sum(dim=1)
        out[tile_g] = acc
    return out
