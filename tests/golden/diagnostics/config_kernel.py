"""The kernel that the lone fail_*.yaml configs here are checked against (not a test itself)."""

import torch

import helion
import helion.language as hl


@helion.kernel()
def scale_add(x: torch.Tensor, y: torch.Tensor, alpha: float = 2.0) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        out[tile_m, tile_n] = alpha * x[tile_m, tile_n] + y[tile_m, tile_n]
    return out
