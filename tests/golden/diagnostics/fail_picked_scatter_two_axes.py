import torch

import helion
import helion.language as hl


# Stores that disagree on both axes of `out` (tiles against shifted tiles): each axis is whole
# in the block, but a store that scatters along both at once is not supported.
@helion.kernel()
def quadrants(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.zeros_like(x)
    for tile_m, tile_n in hl.tile([m // 2, n // 2]):
        out[tile_m, tile_n] = x[tile_m, tile_n]
        out[tile_m.index + m // 2, tile_n.index + n // 2] = x[tile_m, tile_n]
    return out
