import torch

import helion
import helion.language as hl


# Two loops' tiles over one range combined row by row: Helion pairs their rows when the block
# sizes are equal; helionc refuses it (its blocks start at multiples of the block, not at the
# loop's begin). Tiles of different ranges keep the plain broadcast error.
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
def other_ranges(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    m = x.size(0)
    n = y.size(0)
    out = torch.zeros([m], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        for tile_n in hl.tile(n):
            out[tile_m] = x[tile_m] + y[tile_n]
    return out
