"""Each group of four neighbouring columns mixed with its total: x_i -> total + x_i.

Exercises a view of a tile's block in groups of four as two axes of 2
(`tile_d.block_size // 4, 2, 2`), nested `hl.split`s and `hl.join`s, and the view back, on a
product accumulated over an inner loop (a 3-D tile, as Helion's pair-local fragments).
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def group4_mix(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    m, k = x.size()
    h, _, d = weight.size()
    out = torch.empty([h, m, d], dtype=x.dtype, device=x.device)
    for tile_h, tile_m, tile_d in hl.tile([h, m, d]):
        acc = hl.zeros([tile_h, tile_m, tile_d], dtype=torch.float32)
        for tile_k in hl.tile(k):
            acc = hl.dot(x[tile_m, tile_k], weight[tile_h, tile_k, tile_d], acc=acc)
        groups = acc.view(tile_h.block_size, tile_m.block_size, tile_d.block_size // 4, 2, 2)
        left, right = hl.split(groups)
        x0, x1 = hl.split(left)
        x2, x3 = hl.split(right)
        total = x0 + x1 + x2 + x3
        mixed = hl.join(hl.join(total + x0, total + x1), hl.join(total + x2, total + x3))
        out[tile_h, tile_m, tile_d] = mixed.view(
            tile_h.block_size, tile_m.block_size, tile_d.block_size
        ).to(x.dtype)
    return out


def check() -> None:
    x = torch.randn(40, 64, device="cuda")
    weight = torch.randn(3, 64, 136, device="cuda")
    p = torch.einsum("mk,hkd->hmd", x, weight)
    g = p.reshape(3, 40, 34, 4)
    expected = (g + g.sum(-1, keepdim=True)).reshape(3, 40, 136)
    torch.testing.assert_close(group4_mix(x, weight), expected, rtol=1e-3, atol=1e-3)


if __name__ == "__main__":
    check()
