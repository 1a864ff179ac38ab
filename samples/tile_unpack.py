"""``hl.tile(x.size())`` unpacked into names: ``for tile_m, tile_n in hl.tile(out.size())``
states that ``out`` (and so ``x``, whose shape it has) has two dimensions, as
``m, n = x.size()`` does, and each name is the tile of one dimension."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def scale_add_row(x: torch.Tensor, row: torch.Tensor) -> torch.Tensor:
    """``x * 2 + row`` for ``x`` [m, n] and ``row`` [n]."""
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile(out.size()):
        out[tile_m, tile_n] = x[tile_m, tile_n] * 2 + row[tile_n]
    return out


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    row = torch.randn([n], device="cuda")
    torch.testing.assert_close(scale_add_row(x, row), x * 2 + row)


if __name__ == "__main__":
    check(1024, 1024)
