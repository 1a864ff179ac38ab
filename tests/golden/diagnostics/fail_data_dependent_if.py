import torch

import helion
import helion.language as hl


@helion.kernel()
def leaky(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        v = x[tile]
        if v > 0:
            out[tile] = v
        else:
            out[tile] = 0.01 * v
    return out
