"""A registered block size as an allocation size in device code (`hl.zeros([tile_m, block_n])`)
is a dimension that the tiles of a loop tiling with `block_n` take (samples/block_lane_sums.py);
the tiles of a loop with a block of its own do not, so adding them is a shape error."""

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
        for tile_n in hl.tile(n):
            acc += x[tile_m, tile_n]
        out[tile_m] = acc.sum(-1)
    return out


# Inside the loop that tiles with `block_n`, whether the accumulator's last lanes count depends
# on the step (Helion masks them in the last one only): reduce it after the loop.
@helion.kernel()
def running_sums(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    block_n = hl.register_block_size(n)
    out = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m, block_n], dtype=torch.float32)
        for tile_n in hl.tile(n, block_size=block_n):
            acc += acc.sum(dim=1, keepdim=True) + x[tile_m, tile_n]
        out[tile_m] = acc.sum(-1)
    return out
