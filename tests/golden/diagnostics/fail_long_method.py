# RUN-ARGS: -Werror
import torch

import helion
import helion.language as hl


@helion.kernel()
def truncate(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = x[tile].long()
    return out
