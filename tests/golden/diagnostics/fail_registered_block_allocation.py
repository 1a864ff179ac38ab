"""A registered block size as an allocation size in device code (`hl.zeros([tile_m, block_n])`
before the loop that tiles with it): its value is known, but which loop's tile dimension the
allocation's axis is is not, so it is refused at the shape entry. Its value as a number and as
a host size is supported (samples/block_means.py)."""

import torch

import helion
import helion.language as hl


@helion.kernel()
def row_sums(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    block_n = hl.register_block_size(n)
    out = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m, block_n], dtype=torch.float32)
        for tile_n in hl.tile(n, block_size=block_n):
            acc += x[tile_m, tile_n]
        out[tile_m] = acc.sum(-1)
    return out
