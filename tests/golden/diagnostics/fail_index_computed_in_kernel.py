# A scalar index computed in the kernel that no index map computes: a name bound twice (which
# binding reaches the index is decided while the kernel runs). Names bound once to arithmetic on
# tile attributes, grid indices and host values are inlined (README, "Scalar indices computed in
# the kernel"); names read from tensors are gathers.
import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def rebound(x: torch.Tensor) -> torch.Tensor:
    rows, n = x.size()
    out = torch.empty_like(x)
    for tile_r in hl.tile(rows, block_size=1):
        row = tile_r.begin
        if n > 4:
            row = rows - 1 - tile_r.begin
        for tile_n in hl.tile(n):
            out[tile_r.begin, tile_n] = x[row, tile_n]
    return out

