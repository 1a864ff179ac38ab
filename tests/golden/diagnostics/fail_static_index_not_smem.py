# `w[j]` with `j` of an `hl.static_range` needs `w` whole in SMEM, where the kernel indexes it;
# `w` is also read with a tile, so it is a VMEM block placed by an index map, which cannot see `j`.
import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def taps_and_tiles(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    (n,) = x.size()
    out = torch.empty_like(x)
    for tile in hl.tile(n):
        acc = x[tile] * w[tile]
        for j in hl.static_range(3):
            acc = acc + w[j]
        out[tile] = acc
    return out
