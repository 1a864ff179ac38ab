"""Float, int and bool scalar parameters with and without defaults."""

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def axpby(x: torch.Tensor, y: torch.Tensor, alpha: float, beta: float = 0.5, shift: int = 1) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = alpha * x[tile] + beta * y[tile] + shift
    return out
