"""A window of rows stored into a tile of rows: `tile_m.begin + hl.arange(8)` reads 8 rows of
`x` and the kernel stores them at `out[tile_m, tile_n]`, which is right only when the tile's
block holds 8 rows (one block covering fewer rows keeps the first ones). The module checks the
block while it traces (`tile_m.block_size must be 8: ...`); the reference steps by 8."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True, config=helion.Config(block_sizes=[8, 128]))
def row_window_store(x: torch.Tensor) -> torch.Tensor:
    """``2 * x + 1`` of ``x`` [rows, cols], 8 rows at a time."""
    rows, cols = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([rows, cols]):
        row_indices = tile_m.begin + hl.arange(8)
        window = x[row_indices, tile_n]
        out[tile_m, tile_n] = window * 2 + 1
    return out


def check(rows: int, cols: int) -> None:
    x = torch.randn([rows, cols], device="cuda")
    torch.testing.assert_close(row_window_store(x), 2 * x + 1)


if __name__ == "__main__":
    check(16, 256)
