"""`tile.count` of a loop whose block size the source fixes and whose begin is computed in the
kernel (`outer.begin`): Helion's blocks start at that begin, the module's at multiples of the
block, and whether they agree is known only while the kernel runs, so it is refused at the loop
(before, the module counted the blocks from the array's start)."""

import torch

import helion
import helion.language as hl


@helion.kernel()
def inner_counts(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m, n], dtype=torch.float32, device=x.device)
    for outer in hl.tile(m):
        for inner in hl.tile(outer.begin, outer.end, block_size=8):
            out[inner, :] = x[inner, :] + inner.count
    return out
