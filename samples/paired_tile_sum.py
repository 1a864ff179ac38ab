"""Sums over every pair of blocks of a segment, row by row: out[g] is the sum over blocks a and
b of segment g of sum_r x[start + 16 a + r] * y[start + 16 b + r], rows at or past the segment's
end counting 0 (start, end = offsets[g], offsets[g + 1]).

The two inner loops run over one range read from a tensor, and their tiles meet row by row
(`x[tile_i] * y[tile_j]`): Helion's blocks start at the loop's begin, so row r of one block
pairs with row r of the other counting from `start`. helionc starts such loops' blocks at the
begin too (README, "Paired tiles"). The block is fixed in the source: the result depends on it.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def paired_tile_sum(x: torch.Tensor, y: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    """x and y [rows, a, b] of one shape; the result is [segments, a, b] float32."""
    _, a, b = x.size()
    out = torch.empty([offsets.size(0) - 1, a, b], dtype=torch.float32, device=x.device)
    for g in hl.grid(offsets.size(0) - 1):
        start = offsets[g]
        end = offsets[g + 1]
        acc = hl.zeros([a, b], dtype=torch.float32)
        for tile_i in hl.tile(start, end, block_size=16):
            for tile_j in hl.tile(start, end, block_size=16):
                rows = x[tile_i, :, :].to(torch.float32) * y[tile_j, :, :].to(torch.float32)
                acc = acc + rows.sum(0)
        out[g, :, :] = acc
    return out
