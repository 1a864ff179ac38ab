"""Soft-argmax of each row: the mean column index under the row's softmax.

``hl.arange(x.size(1), dtype=torch.float32)`` is the vector of column positions, a whole row
long, broadcast against the block of rows.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def soft_argmax(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        weights = torch.softmax(x[tile_m, :].to(torch.float32), dim=-1)
        positions = hl.arange(x.size(1), dtype=torch.float32)
        out[tile_m] = (weights * positions[None, :]).sum(-1)
    return out


def check() -> None:
    x = torch.randn(1000, 300, device="cuda")
    want = (torch.softmax(x, dim=-1) * torch.arange(300, device="cuda")).sum(-1)
    torch.testing.assert_close(soft_argmax(x), want)


if __name__ == "__main__":
    check()
