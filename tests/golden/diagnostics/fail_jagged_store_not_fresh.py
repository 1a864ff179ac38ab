import torch

import helion
import helion.language as hl


@helion.kernel()
def jagged_fill(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    out = torch.zeros_like(x)
    for g in hl.grid(offsets.size(0) - 1):
        start = offsets[g]
        end = offsets[g + 1]
        for tile in hl.tile(start, end):
            out[tile, :] = x[tile, :] + 1.0
    return out
