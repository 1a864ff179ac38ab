"""A 2-D tensor plus a 1-D bias broadcast along its rows."""

import torch

import helion
import helion.language as hl


@helion.kernel()
def broadcast_add(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        out[tile_m, tile_n] = x[tile_m, tile_n] + bias[tile_n]
    return out
