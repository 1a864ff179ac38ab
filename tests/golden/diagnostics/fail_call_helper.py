import torch

import helion
import helion.language as hl


def softsign(v: torch.Tensor) -> torch.Tensor:
    return v / (1 + v.abs())


@helion.kernel()
def apply_softsign(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = softsign(x[tile])
    return out
