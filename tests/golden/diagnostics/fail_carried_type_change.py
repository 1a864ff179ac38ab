import torch

import helion
import helion.language as hl


@helion.kernel()
def row_sums(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(n):
            acc = acc[:, None] + x[tile_m, tile_n]
        out[tile_m] = acc
    return out
