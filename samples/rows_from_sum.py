"""Column sums of the rows from `start` on: an inner loop with a start (`hl.tile(start, m)`),
whose first block may begin inside a block and whose range may be empty (`start >= m`: the
sums stay zero, under every strategy; under `grid` the loop's axis then takes one step that
does nothing).
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def rows_from_sum(x: torch.Tensor, start: int = 0) -> torch.Tensor:
    """x[start:].sum(0) in float32, for a 2-D x."""
    m, n = x.size()
    out = torch.empty([n], dtype=torch.float32, device=x.device)
    for tile_n in hl.tile(n):
        acc = hl.zeros([tile_n], dtype=torch.float32)
        for tile_k in hl.tile(start, m):
            acc = acc + x[tile_k, tile_n].to(torch.float32).sum(0)
        out[tile_n] = acc
    return out
