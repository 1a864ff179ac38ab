import torch

import helion
import helion.language as hl


@helion.kernel()
def scaled(x: torch.Tensor, k: int) -> torch.Tensor:
    out = torch.zeros_like(x)
    factors = [i + 1 for i in range(k)]
    for tile in hl.tile(x.size(0)):
        acc = x[tile]
        for f in factors:
            acc = acc * f
        out[tile] = acc
    return out
