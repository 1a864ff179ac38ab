"""Row sums over the first end[0] columns, accumulated in lanes of a registered block.

Exercises ``hl.zeros([tile_m, block_n])`` of ``block_n = hl.register_block_size(x.size(1))``
before a loop bounded by a tensor's element, ``hl.tile(end[0], block_size=block_n)`` (the form
of Helion's test_loops ``data_dependent_bounds1``): the loop's tiles take the block's lanes
where they meet the accumulator, those past ``end[0]`` zeros. ``reference_bounded_block_lanes``
steps its loop by ``x.size(1)`` (the register call's bound), so its one tile is partial
wherever ``end[0]`` is less than the row, and is widened to the block with zeros.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def bounded_block_lanes(x: torch.Tensor, end: torch.Tensor) -> torch.Tensor:
    """Sums of each row's first end[0] elements, in float32; x is 2-D, end holds one int."""
    out = torch.empty([x.size(0)], dtype=torch.float32, device=x.device)
    block_n = hl.register_block_size(x.size(1))
    for tile_m in hl.tile(x.size(0)):
        acc = hl.zeros([tile_m, block_n], dtype=torch.float32)
        for tile_n in hl.tile(end[0], block_size=block_n):
            acc += x[tile_m, tile_n].to(torch.float32)
        out[tile_m] = acc.sum(-1)
    return out


def check() -> None:
    x = torch.randn(512, 512, device="cuda")
    end = torch.tensor([200], dtype=torch.int32, device="cuda")
    torch.testing.assert_close(bounded_block_lanes(x, end), x[:, :200].sum(-1), rtol=1e-4, atol=1e-4)


if __name__ == "__main__":
    check()
