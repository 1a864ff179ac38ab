"""A butterfly on neighbouring pairs of each row: (a, b) -> (a + b, a - b).

Exercises a view of a tile's block in groups (`tile_d.block_size // 2, 2`), `hl.split` of the
pairs and `hl.join` of the results, and the view back to the block. The pairs are neighbours
in the tensor whatever the block size: the module checks while it traces that 2 divides the
block and the row's length (an odd width has no pairs).
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def pair_butterfly(x: torch.Tensor) -> torch.Tensor:
    m, d = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_d in hl.tile([m, d]):
        v = x[tile_m, tile_d].to(torch.float32)
        pairs = v.view(tile_m.block_size, tile_d.block_size // 2, 2)
        low, high = hl.split(pairs)
        mixed = hl.join(low + high, low - high)
        out[tile_m, tile_d] = mixed.view(tile_m.block_size, tile_d.block_size).to(out.dtype)
    return out


def check() -> None:
    x = torch.randn(100, 300, device="cuda")
    a, b = x[:, 0::2], x[:, 1::2]
    expected = torch.stack([a + b, a - b], dim=-1).reshape(100, 300)
    torch.testing.assert_close(pair_butterfly(x), expected)


if __name__ == "__main__":
    check()
