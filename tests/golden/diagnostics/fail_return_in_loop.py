import torch

import helion
import helion.language as hl


@helion.kernel()
def early_exit(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = x[tile]
        return out
    return out
