"""Column sums of each segment of a jagged array: out[g] = x[offsets[g]:offsets[g + 1]].sum(0).

The inner loop's bounds are read from a tensor, so they are known only in the kernel: the
first and last block of a segment hold rows of its neighbours, which the sum masks out; an
empty segment sums to zero. The loop stores nothing, so its blocks can also be streamed from
HBM (`emit_pipeline`, `fori_loop`).
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def jagged_row_sum(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    """Per-segment column sums in float32, for a 2-D x; the result is [segments, d]."""
    _, d = x.size()
    out = torch.empty([offsets.size(0) - 1, d], dtype=torch.float32, device=x.device)
    for g in hl.grid(offsets.size(0) - 1):
        start = offsets[g]
        end = offsets[g + 1]
        acc = hl.zeros([d], dtype=torch.float32)
        for tile in hl.tile(start, end):
            acc = acc + x[tile, :].to(torch.float32).sum(0)
        out[g, :] = acc
    return out
