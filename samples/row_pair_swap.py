"""Each pair of neighbouring rows along the leading axis swapped: out[2i] = x[2i + 1] and back.

Exercises a view of a leading tile's block in pairs (`tile_h.block_size // 2, 2`) followed by
permutes that bring the pair axis last for `hl.split` / `hl.join` and back, and the reshape
back to the block. A leading axis takes any block size: the module refuses an odd one while
it traces.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def row_pair_swap(x: torch.Tensor) -> torch.Tensor:
    h, m, d = x.size()
    out = torch.empty_like(x)
    for tile_h, tile_m, tile_d in hl.tile([h, m, d]):
        v = x[tile_h, tile_m, tile_d]
        pairs = v.view(tile_h.block_size // 2, 2, tile_m.block_size, tile_d.block_size)
        even, odd = hl.split(pairs.permute(0, 2, 3, 1))
        swapped = hl.join(odd, even).permute(0, 3, 1, 2)
        out[tile_h, tile_m, tile_d] = swapped.reshape(
            tile_h.block_size, tile_m.block_size, tile_d.block_size
        )
    return out


def check() -> None:
    x = torch.randn(6, 20, 130, device="cuda")
    expected = x.reshape(3, 2, 20, 130).flip(1).reshape(6, 20, 130)
    torch.testing.assert_close(row_pair_swap(x), expected)


if __name__ == "__main__":
    check()
