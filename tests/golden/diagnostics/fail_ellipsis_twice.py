import torch

import helion
import helion.language as hl


@helion.kernel()
def fill(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    for _ in hl.grid(1):
        x[..., ...] = 1.0
    return x
