"""Centres each segment of a packed 1-D array on its mean: out[i] = x[i] - mean(x[s:e]) for
the segment [s, e) holding i.

Two jagged loops per block of segments: one sums each segment, the other scatters the
centred values back through the same indices. A row's indices past its own end point into
the next segment, so the scatter must skip them (the jagged mask keeps those elements of
`out` as the row that owns them writes them).
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def jagged_center(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    """For 1-D float x and int offsets [segments + 1] (sorted, from 0 to x's length)."""
    segments = offsets.size(0) - 1
    out = torch.empty_like(x)
    for tile_g in hl.tile(segments):
        starts = offsets[tile_g]
        lengths = offsets[tile_g.index + 1] - starts
        total = hl.zeros([tile_g], dtype=torch.float32)
        for tile_k in hl.jagged_tile(lengths):
            total = total + x[starts[:, None] + tile_k.index[None, :]].to(torch.float32).sum(dim=1)
        mean = total / torch.clamp(lengths, min=1).to(torch.float32)
        for tile_k in hl.jagged_tile(lengths):
            idx = starts[:, None] + tile_k.index[None, :]
            centred = x[idx].to(torch.float32) - mean[:, None]
            hl.store(out, [idx], centred.to(x.dtype))
    return out
