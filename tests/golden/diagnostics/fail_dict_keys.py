import torch

import helion
import helion.language as hl


@helion.kernel()
def scaled(x: torch.Tensor) -> torch.Tensor:
    out = torch.zeros_like(x)
    factors = {k: k * 2 for k in (1, 2)}
    for tile in hl.tile(x.size(0)):
        a = x[tile] * factors[x.size(0)]
        b = x[tile] * factors[3]
        out[tile] = a + b
    copy = factors
    return out


@helion.kernel()
def branches(x: torch.Tensor, flag: bool) -> torch.Tensor:
    if flag:
        factors = {1: 2}
    else:
        factors = {1: 3}
    out = torch.zeros_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = x[tile]
    return out
