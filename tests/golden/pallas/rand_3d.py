import torch
import helion
import helion.language as hl


# Counters over three tile dimensions: b * (m * n) + m * n + n positions, row-major.
@helion.kernel(static_shapes=True)
def rand_3d(x: torch.Tensor, seed: int) -> torch.Tensor:
    out = torch.zeros_like(x)
    b, m, n = x.shape
    for tile_b, tile_m, tile_n in hl.tile([b, m, n]):
        out[tile_b, tile_m, tile_n] = hl.rand([tile_b, tile_m, tile_n], seed=seed)
    return out
