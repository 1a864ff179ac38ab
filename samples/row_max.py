"""The largest element of each row and where it is (``torch.max(x, dim=-1)``), plus the row minimum.

All-negative rows must not see a padding 0 as their maximum, and ties go to the first index.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def row_max(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """[m, n] -> (max values [m], argmax [m] int32, min values [m])."""
    m, n = x.size()
    values = torch.empty([m], dtype=x.dtype, device=x.device)
    indices = torch.empty([m], dtype=torch.int32, device=x.device)
    minima = torch.empty([m], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        row = x[tile_m, :]
        top, where = torch.max(row, dim=-1)
        values[tile_m] = top
        indices[tile_m] = where.to(torch.int32)
        minima[tile_m] = row.amin(dim=-1)
    return values, indices, minima


def main() -> None:
    x = torch.randn(1000, 300, device="cuda")
    values, indices, minima = row_max(x)
    expected = torch.max(x, dim=-1)
    torch.testing.assert_close(values, expected.values)
    torch.testing.assert_close(indices, expected.indices.int())
    torch.testing.assert_close(minima, x.amin(-1))


if __name__ == "__main__":
    main()
