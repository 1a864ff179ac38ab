import torch

import helion
import helion.language as hl


# An `if` on a device scalar whose branches store: each branch is a function under `pl.when`,
# so it cannot rebind a name of the code before it, and what it binds is not defined after it.
@helion.kernel()
def flagged(x: torch.Tensor, flags: torch.Tensor) -> torch.Tensor:
    out = torch.zeros_like(x)
    for tile in hl.tile(x.size(0)):
        v = x[tile]
        if flags[0] > 0:
            v = v * 2.0
            w = v + 1.0
            out[tile] = w
        else:
            out[tile] = v
        out[tile] = out[tile] + w
    return out
