import torch

import helion
import helion.language as hl


@helion.kernel()
def fill_columns(x: torch.Tensor) -> torch.Tensor:
    n = x.shape[-1]
    for i in hl.grid(n):
        x[..., i] = 1.0
    return x
