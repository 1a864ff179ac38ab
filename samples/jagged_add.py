"""A per-segment bias added to the rows of a jagged array: segment g is rows
offsets[g]:offsets[g + 1] of x, and gets row g of bias.

The inner loop's bounds are read from a tensor (`hl.tile(offsets[g], offsets[g + 1])`), so they
are known only in the kernel: its blocks start on the array's block boundaries, the first and
last block of a segment are shared with its neighbours, and the store keeps their rows (a mask
against what the output block holds already). Segments may start inside a block, be empty, or
end at the array's end.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def jagged_add(x: torch.Tensor, bias: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    """out[offsets[g]:offsets[g + 1]] = x[...] + bias[g], for a 2-D x and bias."""
    out = torch.empty_like(x)
    for g in hl.grid(offsets.size(0) - 1):
        start = offsets[g]
        end = offsets[g + 1]
        for tile in hl.tile(start, end):
            out[tile, :] = x[tile, :] + bias[g, :]
    return out
