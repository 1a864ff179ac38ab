import torch

import helion
import helion.language as hl
from helion.autotuner import BooleanFragment
from helion.autotuner import EnumFragment


@helion.kernel()
def picked(x: torch.Tensor) -> torch.Tensor:
    (n,) = x.size()
    out = torch.empty_like(x)
    factor = hl.register_tunable("factor", EnumFragment((1, 2, 4)))
    negate = hl.register_tunable("negate", BooleanFragment())
    for tile in hl.tile(n):
        value = x[tile] * factor
        if negate:
            value = -value
        out[tile] = value
    return out
