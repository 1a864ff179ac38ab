import torch

import helion
import helion.language as hl


# Tile reshapes keep the tiles, and the sizes of what they do not regroup; each of these is
# reported.
@helion.kernel()
def reshapes(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        v = x[tile_m, tile_n]
        swapped = v.reshape(tile_n, tile_m)
        flat = v.view(-1)
        whole = v.view(tile_m, n)
        two = v.view(-1, 1, -1)
        out[tile_m, tile_n] = v
    return out
