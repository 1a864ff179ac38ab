"""Two outputs, `torch.where` and comparisons, `torch.zeros` with an int32 dtype."""

import torch

import helion
import helion.language as hl


@helion.kernel()
def clip_flags(x: torch.Tensor, lo: float = -0.5, hi: float = 0.5) -> tuple[torch.Tensor, torch.Tensor]:
    m, n = x.size()
    clipped = torch.empty_like(x)
    flags = torch.zeros([m, n], dtype=torch.int32, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        v = x[tile_m, tile_n]
        clipped[tile_m, tile_n] = torch.clamp(v, lo, hi)
        flags[tile_m, tile_n] = torch.where((v < lo) | (v > hi), 1, 0)
    return clipped, flags
