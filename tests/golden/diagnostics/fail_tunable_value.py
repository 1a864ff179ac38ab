import torch

import helion
import helion.language as hl
from helion.autotuner import BooleanFragment
from helion.autotuner import IntegerFragment


@helion.kernel(config={"repeats": 9})
def repeated(x: torch.Tensor) -> torch.Tensor:
    (n,) = x.size()
    out = torch.empty_like(x)
    repeats = hl.register_tunable("repeats", IntegerFragment(1, 4, 2))
    negate = hl.register_tunable("negate", BooleanFragment())
    for tile in hl.tile(n):
        value = x[tile] * repeats
        if negate:
            value = -value
        out[tile] = value
    return out
