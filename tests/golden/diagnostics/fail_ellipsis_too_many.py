import torch

import helion
import helion.language as hl


@helion.kernel()
def fill(x: torch.Tensor) -> torch.Tensor:
    m, n = x.shape
    for i in hl.grid(m):
        for j in hl.grid(n):
            x[i, j, 0, ...] = 1.0
    return x
