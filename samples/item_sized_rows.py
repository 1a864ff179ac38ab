"""The first offsets[-1] rows of x, doubled: an output sized by a value read with `.item()`.

`n = int(offsets[-1].item())` sizes an allocation, so the host code needs its concrete value
before the launch: the module reads it on the host (`_item`), which works on concrete arrays
and raises a precise error under `jax.jit`, where an output's shape cannot depend on data.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def item_sized_rows(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    """2 * x[:offsets[-1]], of shape [offsets[-1], d]; offsets are sorted, within x's rows."""
    n = int(offsets[-1].item())
    d = x.size(1)
    out = torch.zeros([n, d], dtype=x.dtype, device=x.device)
    for tile_n, tile_d in hl.tile([n, d]):
        out[tile_n, tile_d] = x[tile_n, tile_d] * 2
    return out
