import torch

import helion
import helion.language as hl


@helion.kernel()
def maybe_scale_head(x: torch.Tensor, scale_head: bool = True) -> torch.Tensor:
    m, n = x.size()
    out = torch.zeros_like(x)
    for tile_m in hl.tile(m):
        if scale_head:
            out[tile_m, :16] = x[tile_m, :16] * 2.0
        out[tile_m, 16:] = x[tile_m, 16:]
    return out
