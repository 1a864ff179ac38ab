"""Sums over the last axis of a tensor of any rank, viewed as rows on the host (the shape of
Helion's attention examples): the last size is specialised (`hl.specialize(x_in.size(-1))`)
and names an axis of the accumulator, `hl.zeros([tile_m, n])`; the result is viewed back as
`x_in.size()[:-1]`, a slice of a shape whose rank is known only while JAX traces.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def viewed_row_sum(x_in: torch.Tensor) -> torch.Tensor:
    """x_in.sum(-1) in float32, for x_in of any rank >= 2."""
    n = hl.specialize(x_in.size(-1))
    x = x_in.reshape([-1, n])
    out = torch.empty([x.size(0)], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(x.size(0)):
        acc = hl.zeros([tile_m, n], dtype=torch.float32)
        acc = acc + x[tile_m, :]
        out[tile_m] = acc.sum(-1)
    return out.reshape(x_in.size()[:-1])
