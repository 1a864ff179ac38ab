"""Row sums scaled by the block sizes that the source fixes, read as numbers in arithmetic.

Exercises ``tile.block_size`` as a number (``x[tile_m, tile_n] * tile_n.block_size``) under
``hl.tile(n, block_size=256)`` in an inner loop and ``hl.tile(m, block_size=128)`` around it:
Helion's values are the blocks the source asks for, even on a partial last tile and where a
loop is shorter than its block (9 rows, 100 columns; the elements past the end read as zeros,
as Helion's masked loads read them). The module keeps those blocks
(``_kept_block(..., exact=True)``) instead of the whole dimension a TPU-legal block would
otherwise become. A block that is no multiple of its axis's 8 or 128 would raise while JAX
traces instead (a 1-D output's blocks land on lanes).
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def fixed_block_numbers(x: torch.Tensor) -> torch.Tensor:
    """Row sums of ``x`` times 256 / 128 in float32, written with the fixed blocks' sizes."""
    m, n = x.size()
    out = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m, block_size=128):
        acc = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(n, block_size=256):
            acc += (x[tile_m, tile_n].to(torch.float32) * tile_n.block_size).sum(1)
        out[tile_m] = acc / tile_m.block_size
    return out


def check() -> None:
    x = torch.randn(9, 100, device="cuda")
    torch.testing.assert_close(fixed_block_numbers(x), x.sum(1) * 2.0)


if __name__ == "__main__":
    check()
