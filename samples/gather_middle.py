"""Pick channels of each row of a 3-D array by index, dropping the first feature:
``out[a, b, :] = x[a, channels[b], 1:]``.

A gather along the middle axis of a 3-D table whose other axes are a tile and a slice.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def gather_middle(x: torch.Tensor, channels: torch.Tensor) -> torch.Tensor:
    rows, _, features = x.size()
    out = torch.empty([rows, channels.size(0), features - 1], dtype=x.dtype, device=x.device)
    for tile_a, tile_b in hl.tile([rows, channels.size(0)]):
        out[tile_a, tile_b, :] = x[tile_a, channels[tile_b], 1:]
    return out
