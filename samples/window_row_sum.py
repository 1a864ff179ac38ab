"""Row sums over a window of columns read from a tensor: out[i] = x[i, bounds[0]:bounds[1]].sum().

Both bounds of the inner loop are elements of one tensor (`hl.tile(bounds[0], bounds[1])`),
read in the kernel: its blocks start at the block holding bounds[0], and the elements of the
first and last blocks outside the window are masked out of the sum.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def window_row_sum(x: torch.Tensor, bounds: torch.Tensor) -> torch.Tensor:
    """Sums of each row's columns bounds[0] to bounds[1] (excluded), in float32; x is 2-D."""
    out = torch.empty([x.size(0)], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(x.size(0)):
        acc = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(bounds[0], bounds[1]):
            acc = acc + x[tile_m, tile_n].to(torch.float32).sum(-1)
        out[tile_m] = acc
    return out
