"""Row sums of squares accumulated in lanes of a registered block, then reduced.

Exercises a registered block size as an allocation size in device code
(`hl.zeros([tile_m, block_n])` before the loop that tiles with `block_n`): the loop's tiles take
that dimension where they meet the accumulator, their lanes past the row's end as zeros (as
Helion's masked loads read them), so widths the block does not divide sum correctly.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def block_lane_sums(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    block_n = hl.register_block_size(n)
    out = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m, block_n], dtype=torch.float32)
        for tile_n in hl.tile(n, block_size=block_n):
            v = x[tile_m, tile_n].to(torch.float32)
            acc += v * v
        out[tile_m] = acc.sum(-1)
    return out


def check() -> None:
    x = torch.randn(1000, 300, device="cuda")
    torch.testing.assert_close(block_lane_sums(x), (x * x).sum(-1), rtol=1e-4, atol=1e-3)


if __name__ == "__main__":
    check()
