import torch

import helion
import helion.language as hl


@helion.kernel()
def add_col(x: torch.Tensor, col: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        out[tile_m, tile_n] = x[tile_m, tile_n] + col[tile_m]
    return out
