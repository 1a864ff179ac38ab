import torch

import helion
import helion.language as hl
from helion.autotuner import EnumFragment
from helion.autotuner import IntegerFragment
from helion.autotuner import PowerOfTwoFragment

NAME = "width"


@helion.kernel()
def scaled(x: torch.Tensor) -> torch.Tensor:
    (n,) = x.size()
    out = torch.empty_like(x)
    a = hl.register_tunable(NAME, PowerOfTwoFragment(16, 256))
    b = hl.register_tunable("b", PowerOfTwoFragment(3, 256))
    c = hl.register_tunable("c", IntegerFragment(8, 2))
    d = hl.register_tunable("d", EnumFragment((1.5, 2.5)))
    e = hl.register_tunable("e", 4)
    f = hl.register_tunable("block_sizes", IntegerFragment(1, 4))
    g = hl.register_tunable("g", IntegerFragment(1, 4))
    h = hl.register_tunable("g", IntegerFragment(1, 4))
    for tile in hl.tile(n):
        k = hl.register_tunable("k", IntegerFragment(1, 4))
        w = helion.next_power_of_2(tile.begin)
        v = hl.constexpr(tile.begin)
        out[tile] = x[tile] * g
    return out
