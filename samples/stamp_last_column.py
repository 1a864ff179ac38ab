"""Two index patterns on one axis: every tile of `out` gets twice `x`'s, and every step also
stores `x`'s first column into `out`'s last one (`out[tile_m, n - 1]`). The stores disagree on
the columns (a tile against a number), so `out`'s block holds whole rows, the tile's store
scatters its columns into them, and the other store puts one column (README, "Stores that pick
elements"). Stores run in order, so the last column ends up with `x`'s first."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def stamp_last_column(x: torch.Tensor) -> torch.Tensor:
    """``2 * x`` with the last column replaced by ``x[:, 0]``, for ``x`` [m, n]."""
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        out[tile_m, tile_n] = x[tile_m, tile_n] * 2
        out[tile_m, n - 1] = x[tile_m, 0]
    return out


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    expected = 2 * x
    expected[:, -1] = x[:, 0]
    torch.testing.assert_close(stamp_last_column(x), expected)


if __name__ == "__main__":
    check(16, 384)
