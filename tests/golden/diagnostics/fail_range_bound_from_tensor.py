import torch

import helion
import helion.language as hl


@helion.kernel()
def repeat_rows(x: torch.Tensor, counts: torch.Tensor) -> torch.Tensor:
    (m,) = x.size()
    out = torch.zeros_like(x)
    for tile_m in hl.tile(m, block_size=1):
        n = counts[tile_m.begin]
        for _ in range(n):
            out[tile_m] += x[tile_m]
        for w in {1: None, 2: None}:
            out[tile_m] += w
    return out
