import torch

import helion
import helion.language as hl


@helion.kernel()
def copy_then_double(x: torch.Tensor) -> torch.Tensor:
    (n,) = x.size()
    out = torch.empty_like(x)
    for tile in hl.tile(n):
        out[tile] = x[tile]
    for tile_2 in hl.tile(n):
        out[tile_2] = out[tile] * 2.0
    return out
