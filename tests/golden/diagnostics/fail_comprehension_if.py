import torch

import helion
import helion.language as hl


@helion.kernel()
def scaled(x: torch.Tensor) -> torch.Tensor:
    out = torch.zeros_like(x)
    factors = [m for m in (1, 2, 3) if m > 1]
    for tile in hl.tile(x.size(0)):
        acc = x[tile]
        for f in factors:
            acc = acc * f
        out[tile] = acc
    return out
