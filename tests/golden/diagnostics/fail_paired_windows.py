import torch

import helion
import helion.language as hl


# Paired tiles (two loops over one range read from a tensor, combined row by row) have blocks
# that start at the loop's begin, a row the block need not divide: helionc takes such windows
# on leading axes only (a TPU loads the last two axes of a block in tiles of 8 x 128), and
# stores through them not at all.
@helion.kernel()
def pair_products(x: torch.Tensor, y: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    n, d = x.size()
    out = torch.zeros([offsets.size(0) - 1, d], dtype=x.dtype, device=x.device)
    for seg in hl.grid(offsets.size(0) - 1):
        start = offsets[seg]
        end = offsets[seg + 1]
        acc = hl.zeros([d], dtype=torch.float32)
        for tile_i in hl.tile(start, end):
            for tile_j in hl.tile(start, end):
                acc = acc + (x[tile_i, :] * y[tile_j, :]).sum(0)
        out[seg, :] = acc.to(out.dtype)
    return out


@helion.kernel()
def stored_pairs(x: torch.Tensor, y: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for g in hl.grid(offsets.size(0) - 1):
        start = offsets[g]
        end = offsets[g + 1]
        for tile_i in hl.tile(start, end):
            for tile_j in hl.tile(start, end):
                out[tile_i, :, :] = x[tile_i, :, :] * y[tile_j, :, :]
    return out
