import torch

import helion
import helion.language as hl


@helion.kernel()
def add3(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    b, m, n = x.size()
    p, q = x.size()
    out = torch.empty_like(x)
    for tile_b, tile_m, tile_n in hl.tile([b, m, n]):
        out[tile_b, tile_m, tile_n] = x[tile_b, tile_m, tile_n] + y[tile_b, tile_m, tile_n]
    return out
