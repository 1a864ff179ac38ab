"""Row means kept as a column: ``torch.mean(x, dim=1, keepdim=True)`` -> [m, 1].

The rows are widened to float32 first, so the means are float32 whatever ``x``'s dtype: a
common first step of hand-written normalisations.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def row_mean(x: torch.Tensor) -> torch.Tensor:
    """[m, n] -> [m, 1] float32 means of the rows of ``x``."""
    m, n = x.size()
    out = torch.empty([m, 1], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        row = x[tile_m, :].float()
        out[tile_m, :] = row.mean(dim=1, keepdim=True)
    return out


def check() -> None:
    x = torch.randn(1000, 300, device="cuda", dtype=torch.bfloat16)
    torch.testing.assert_close(row_mean(x), x.float().mean(dim=1, keepdim=True))


if __name__ == "__main__":
    check()
