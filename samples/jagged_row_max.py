"""The largest of the first `lengths[b]` elements of each row (0 for an empty row):
out[b] = x[b, :lengths[b]].max().

A max along a jagged tile must not see the elements past a row's end (they read as 0, which
may exceed every element of the row): they count as -inf. In a step past a row's end the
whole row is masked, and its max is -inf, which `torch.maximum` with `best` ignores.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def jagged_row_max(x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """For x [b, k] and int lengths [b] (each at most k); the result is [b] float32."""
    b = x.size(0)
    out = torch.empty([b], dtype=torch.float32, device=x.device)
    for tile_b in hl.tile(b):
        row_lengths = lengths[tile_b]
        best = hl.full([tile_b], float("-inf"), dtype=torch.float32)
        for tile_k in hl.jagged_tile(row_lengths):
            best = torch.maximum(best, x[tile_b, tile_k].to(torch.float32).amax(dim=1))
        out[tile_b] = torch.where(row_lengths > 0, best, 0.0)
    return out
