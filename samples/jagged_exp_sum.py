"""Sums of exp over the first `lengths[b]` rows of each batch: out[b] = exp(x[b, :lengths[b]]).sum(0).

`hl.jagged_tile(row_lengths)` runs its loop to the longest row of the block of batches; each
batch masks the rows past its own length. The mask applies to the sum itself, not only to the
loads: exp turns a masked-out zero into one, which must not be added.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def jagged_exp_sum(x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """For x [b, k, d] and int lengths [b] (each at most k); the result is [b, d] float32."""
    b, _, d = x.size()
    out = torch.empty([b, d], dtype=torch.float32, device=x.device)
    for tile_b in hl.tile(b):
        row_lengths = lengths[tile_b]
        acc = hl.zeros([tile_b, d], dtype=torch.float32)
        for tile_k in hl.jagged_tile(row_lengths):
            acc = acc + torch.exp(x[tile_b, tile_k, :].to(torch.float32)).sum(dim=1)
        out[tile_b, :] = acc
    return out
