import torch

import helion
import helion.language as hl


# `row.begin` moves inside the kernel, so its axis is whole in the block and picked there; a
# tile of an inner loop in the same index is not supported with it yet.
@helion.kernel()
def shifted_rows(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for _g in hl.grid(1):
        for row in hl.tile(m, block_size=1):
            for tile_n in hl.tile(n):
                out[row.begin, tile_n] = x[row.begin, tile_n]
    return out
