import torch

import helion
import helion.language as hl


# Two loops' tiles over one range combined row by row: Helion pairs their rows when the block
# sizes are equal, counting from the loop's begin. helionc pairs them where the begin is read in
# the kernel (its blocks then start there: samples/paired_tile_sum.py); over a range known on
# the host, or in a comparison, it refuses. Tiles of different ranges keep the plain broadcast
# error.
@helion.kernel()
def host_range_pairs(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    n, d = x.size()
    out = torch.empty([d], dtype=torch.float32, device=x.device)
    for tile_d in hl.tile(d):
        acc = hl.zeros([tile_d], dtype=torch.float32)
        for tile_i in hl.tile(n):
            for tile_j in hl.tile(n):
                acc = acc + (x[tile_i, tile_d] * y[tile_j, tile_d]).sum(0)
        out[tile_d] = acc
    return out


@helion.kernel()
def compared_pairs(x: torch.Tensor, y: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    _, a, b = x.size()
    out = torch.empty([offsets.size(0) - 1, a, b], dtype=torch.float32, device=x.device)
    for g in hl.grid(offsets.size(0) - 1):
        acc = hl.zeros([a, b], dtype=torch.float32)
        for tile_i in hl.tile(offsets[g], offsets[g + 1]):
            for tile_j in hl.tile(offsets[g], offsets[g + 1]):
                acc = acc + (x[tile_i, :, :] < y[tile_j, :, :]).to(torch.float32).sum(0)
        out[g, :, :] = acc
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
