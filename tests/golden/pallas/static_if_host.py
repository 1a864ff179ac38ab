"""A static `if` on a bool parameter in host code rebinds a scalar before the tile loop."""

import torch

import helion
import helion.language as hl


@helion.kernel()
def scale_add(x: torch.Tensor, y: torch.Tensor, scale: float = 1.0, negate: bool = False) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    if negate:
        scale = -scale
    for tile_m, tile_n in hl.tile([m, n]):
        out[tile_m, tile_n] = scale * x[tile_m, tile_n] + y[tile_m, tile_n]
    return out
