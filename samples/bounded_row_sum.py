"""Row sums over the first end[0] columns: out[i] = x[i, :end[0]].sum().

The inner loop's bound is an element of a tensor, written where host code could read it
(`hl.tile(end[0])` needs no outer tile), so it is known only when the kernel runs: the kernel
reads it from SMEM, the blocks past the bound take no step, and the last block is masked.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def bounded_row_sum(x: torch.Tensor, end: torch.Tensor) -> torch.Tensor:
    """Sums of each row's first end[0] elements, in float32; x is 2-D, end holds one int."""
    out = torch.empty([x.size(0)], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(x.size(0)):
        acc = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(end[0]):
            acc = acc + x[tile_m, tile_n].to(torch.float32).sum(-1)
        out[tile_m] = acc
    return out
