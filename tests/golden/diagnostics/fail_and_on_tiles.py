import torch

import helion
import helion.language as hl


@helion.kernel()
def in_band(x: torch.Tensor, lo: float = -1.0, hi: float = 1.0) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m, n], dtype=torch.bool, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        v = x[tile_m, tile_n]
        out[tile_m, tile_n] = (v > lo) and (v < hi)
    return out
