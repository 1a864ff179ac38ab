import torch

import helion
import helion.language as hl


@helion.kernel()
def several(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        a = torch.frobnicate(x[tile])
        b = y[tile] + undefined_scale
        out[tile] = x[tile].double()
    return out
