# RUN-ARGS: -Werror
import torch

import helion
import helion.language as hl


@helion.kernel(True)
def negate(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = -x[tile]
    return out
