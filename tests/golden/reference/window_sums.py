"""A reference golden: a fixed block size, an inner loop with a start and a carried sum, a row
gather, a Python float on a 16-bit tile, and a parameter updated in place."""

import torch

import helion
import helion.language as hl


@helion.kernel()
def window_sums(x: torch.Tensor, table: torch.Tensor, ids: torch.Tensor, start: int = 2) -> torch.Tensor:
    """Column sums of rows `start:` of x plus half their table rows; doubles x in place."""
    m, n = x.size()
    out = torch.empty([n], dtype=torch.float32, device=x.device)
    for tile_n in hl.tile(n, block_size=16):
        acc = hl.zeros([tile_n], dtype=torch.float32)
        for tile_k in hl.tile(start, m):
            rows = x[tile_k, tile_n] + table[ids[tile_k], tile_n] * 0.3
            acc = acc + rows.to(torch.float32).sum(0)
        out[tile_n] = acc
    for tile_m, tile_c in hl.tile([m, n]):
        x[tile_m, tile_c] = x[tile_m, tile_c] * 2
    return out
