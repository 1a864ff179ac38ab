# `hl.jagged_tile` of one int bound for all rows: that is `hl.tile`.
import torch
import helion
import helion.language as hl


@helion.kernel()
def uniform_jagged(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        for tile_n in hl.jagged_tile(n):
            out[tile_m, tile_n] = x[tile_m, tile_n] + 1.0
    return out
