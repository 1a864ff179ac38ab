import torch

import helion
import helion.language as hl


@helion.kernel()
def stop_here(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        breakpoint()
        out[tile] = x[tile]
    return out
