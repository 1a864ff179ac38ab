"""Rows minus their mean, times a per-row weight; also returns the means.

Reshapes tile values: a row statistic of shape [tile_m] becomes a column with ``.view(-1, 1)``,
the weights with ``.reshape(tile_m, 1)``, and the column goes back to [tile_m] with
``.reshape(tile_m.block_size)`` to be stored.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def row_center(x: torch.Tensor, w: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    m, n = x.size()
    out = torch.empty_like(x)
    means = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        rows = x[tile_m, :].to(torch.float32)
        mean = rows.sum(-1).view(-1, 1) / n
        weight = w[tile_m].to(torch.float32).reshape(tile_m, 1)
        out[tile_m, :] = ((rows - mean) * weight).to(out.dtype)
        means[tile_m] = mean.reshape(tile_m.block_size)
    return out, means


def check() -> None:
    x = torch.randn(1000, 300, device="cuda")
    w = torch.randn(1000, device="cuda")
    out, means = row_center(x, w)
    torch.testing.assert_close(means, x.mean(-1))
    torch.testing.assert_close(out, (x - x.mean(-1, keepdim=True)) * w[:, None])


if __name__ == "__main__":
    check()
