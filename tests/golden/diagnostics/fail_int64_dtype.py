import torch

import helion
import helion.language as hl


@helion.kernel()
def positive_mask(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m, n], dtype=torch.int64, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        out[tile_m, tile_n] = (x[tile_m, tile_n] > 0).to(torch.int32)
    return out
