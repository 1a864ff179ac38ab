"""Column sums of a prefix of the rows per entry of `lengths`: out[b] = x[:lengths[b]].sum(0).

The inner loop's end is read from a tensor (`hl.tile(0, lengths[b])`): the trip count differs
from one outer step to the next, the last block is masked, and a length of 0 sums to zero.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def prefix_row_sum(x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """Per-entry column sums of x's first lengths[b] rows in float32; the result is [b, d]."""
    _, d = x.size()
    out = torch.empty([lengths.size(0), d], dtype=torch.float32, device=x.device)
    for b in hl.grid(lengths.size(0)):
        n = lengths[b]
        acc = hl.zeros([d], dtype=torch.float32)
        for tile in hl.tile(0, n):
            acc = acc + x[tile, :].to(torch.float32).sum(0)
        out[b, :] = acc
    return out
