import torch

import helion
import helion.language as hl


@helion.kernel()
def halve_until_small(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        v = x[tile]
        while v > 1.0:
            v = v * 0.5
        out[tile] = v
    return out
