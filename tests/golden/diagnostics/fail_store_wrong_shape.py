import torch

import helion
import helion.language as hl


@helion.kernel()
def add_bias(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([n], dtype=x.dtype, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        out[tile_n] = x[tile_m, tile_n] + bias[tile_n]
    return out
