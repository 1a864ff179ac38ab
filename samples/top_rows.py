"""The first eight rows of a matrix scaled, the others less their first element.

Exercises slices of the second-to-last (sublane) axis with literal bounds (`x[:8, tile_n]`,
`hl.store(out, [slice(8, None), tile_n], ...)`, the explicit form) while the last axis is tiled:
the block holds whole columns. With fewer than eight rows `[:8]` is every row and `[8:]` none,
as in Python. `x[8:, 0]` is a slice of a column (a lane window, sliced).
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def top_rows(x: torch.Tensor, scale: float = 3.0) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_n in hl.tile(n):
        out[:8, tile_n] = x[:8, tile_n] * scale
        rest = hl.load(x, [slice(8, None), tile_n]) - x[8:, 0][:, None]
        hl.store(out, [slice(8, None), tile_n], rest)
    return out


def check() -> None:
    x = torch.randn(64, 300, device="cuda")
    expected = torch.cat([x[:8] * 3.0, x[8:] - x[8:, :1]], dim=0)
    torch.testing.assert_close(top_rows(x, 3.0), expected)


if __name__ == "__main__":
    check()
