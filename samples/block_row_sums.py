"""Column sums accumulated in rows of a registered block whose range does not reach the rows'
count, so the loop that tiles with it has a partial last tile even in the module's reference.

Exercises ``hl.zeros([block_m, tile_n])`` of ``block_m = hl.register_block_size(8, 32)`` before
the loop ``hl.tile(m, block_size=block_m)``: where ``acc += x[tile_m, tile_n]`` meets the
accumulator, the loop's tile takes the block's rows, those past the last row zeros (as Helion's
masked loads read them), and ``tile_m.block_size`` is the block on every tile, the last one
too. ``reference_block_row_sums`` steps its loop by 32 (the range's top), so 64 rows divide its
blocks and 100 leave a last tile of 4 rows, widened to the block with zeros.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def block_row_sums(x: torch.Tensor) -> torch.Tensor:
    """The float32 sums of ``x``'s columns ([m, n] -> [n])."""
    m, n = x.size()
    block_m = hl.register_block_size(8, 32)
    out = torch.empty([n], dtype=torch.float32, device=x.device)
    for tile_n in hl.tile(n):
        acc = hl.zeros([block_m, tile_n], dtype=torch.float32)
        for tile_m in hl.tile(m, block_size=block_m):
            # Scaled down by the block and back up below: `tile_m.block_size` is the block on
            # the last tile too, however few rows it has left.
            acc += x[tile_m, tile_n].to(torch.float32) / tile_m.block_size
        out[tile_n] = acc.sum(0) * block_m
    return out


def check() -> None:
    x = torch.randn(100, 300, device="cuda")
    torch.testing.assert_close(block_row_sums(x), x.sum(0), rtol=1e-4, atol=1e-4)


if __name__ == "__main__":
    check()
