"""Each segment of a jagged array scaled by its own factor, over 2-D tiles whose row bounds are
read from a tensor: `hl.tile([start, 0], [end, n])` mixes a bound read from `offsets` with a
host int. The column blocks may be partial too; the store is masked along the rows only.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def jagged_scale_2d(x: torch.Tensor, scales: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    """out[offsets[g]:offsets[g + 1]] = x[...] * scales[g], for a 2-D x and a 1-D scales."""
    _, n = x.size()
    out = torch.empty_like(x)
    for g in hl.grid(offsets.size(0) - 1):
        start = offsets[g]
        end = offsets[g + 1]
        for tile_r, tile_c in hl.tile([start, 0], [end, n]):
            out[tile_r, tile_c] = x[tile_r, tile_c] * scales[g]
    return out
