import torch

import helion
import helion.language as hl


@helion.kernel()
def copy_rows(x: torch.Tensor) -> torch.Tensor:
    m, *rest = x.size()
    out = torch.empty_like(x)
    for tile in hl.tile(m):
        out[tile, :] = x[tile, :]
    return out
