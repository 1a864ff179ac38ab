"""A matrix product per segment of a jagged array (a jagged dense bmm): the rows of segment g,
x[offsets[g]:offsets[g + 1]], times w[g].

The inner loop's bounds are read from a tensor: its blocks start on the array's block
boundaries, so a segment's first and last block hold rows of its neighbours, which the masked
store keeps (each row's product is its own: the rows of other segments only cost work).
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def jagged_matmul(x: torch.Tensor, w: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    """out[offsets[g]:offsets[g + 1]] = x[...] @ w[g] in float32; x [rows, k], w [segments, k, n]."""
    out = torch.empty([x.size(0), w.size(2)], dtype=torch.float32, device=x.device)
    for g in hl.grid(offsets.size(0) - 1):
        start = offsets[g]
        end = offsets[g + 1]
        for tile in hl.tile(start, end):
            out[tile, :] = torch.matmul(x[tile, :], w[g, :, :]).to(torch.float32)
    return out
