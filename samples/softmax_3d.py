"""Softmax over the last dimension of a [batch, rows, cols] tensor (attention probabilities).

The first two dimensions are tiled together (``hl.tile([b, m])``); each program normalises a
[block_b, block_m, cols] slab.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def softmax_3d(x: torch.Tensor) -> torch.Tensor:
    """``torch.softmax(x, dim=-1)`` for a 3-D ``x``."""
    b, m, n = x.size()
    out = torch.empty_like(x)
    for tile_b, tile_m in hl.tile([b, m]):
        row = x[tile_b, tile_m, :].to(torch.float32)
        row_max = row.amax(dim=-1, keepdim=True)
        num = torch.exp(row - row_max)
        den = num.sum(dim=-1, keepdim=True)
        out[tile_b, tile_m, :] = (num / den).to(out.dtype)
    return out


def main() -> None:
    x = torch.randn(16, 512, 512, device="cuda", dtype=torch.bfloat16)
    torch.testing.assert_close(softmax_3d(x), torch.softmax(x, dim=-1))


if __name__ == "__main__":
    main()
