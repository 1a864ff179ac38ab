import torch

import helion
import helion.language as hl


@helion.kernel()
def scale_rows(x: torch.Tensor, scales: list[float]) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = x[tile]
    return out
