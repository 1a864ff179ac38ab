"""Sizes of a tile value as names (`block_m, block_n = v.size()`) in `.view()` and `.expand()`,
and `.squeeze(0)` of a tile's dimension, which PyTorch leaves alone (a block is not known to be
1; the kernel is written for any block size, so the dimension stays for every config)."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def block_size_names(x: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
    """``x`` [m, n] with the rows whose ``keep`` [m] entry is 0 zeroed."""
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        v = x[tile_m, tile_n]
        block_m, block_n = v.size()
        kept = (keep[tile_m] != 0).squeeze(0)
        mask = kept.view(block_m, 1).expand(block_m, block_n)
        out[tile_m, tile_n] = torch.where(mask, v, 0.0)
    return out


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    keep = torch.randint(0, 2, [m], device="cuda", dtype=torch.int32)
    torch.testing.assert_close(block_size_names(x, keep), x * (keep != 0)[:, None])


if __name__ == "__main__":
    check(20, 300)
