"""Row sums of the lower triangle of a square matrix: out[i] = sum(x[i, j] for j <= i).

The inner loop runs only up to the end of the outer tile (`hl.tile(0, tile_m.end)`), so blocks
right of the diagonal are never read (causal attention skips masked blocks the same way); the
diagonal blocks are masked by comparing `tile_n.index` with `tile_m.index`.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def causal_row_sum(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    assert m == n, "x must be square"
    out = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(0, tile_m.end):
            values = x[tile_m, tile_n].to(torch.float32)
            below = tile_n.index[None, :] <= tile_m.index[:, None]
            acc = acc + torch.where(below, values, 0.0).sum(-1)
        out[tile_m] = acc
    return out
