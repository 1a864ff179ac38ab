import torch

import helion
import helion.language as hl


@helion.kernel()
def shift_by_stride(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile, :] = x[tile, :] + x.stride(0)
    return out
