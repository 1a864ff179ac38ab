"""A rank-polymorphic elementwise kernel (``hl.tile(out.size())``) whose second input may have
axes of size 1 where ``x`` has more, read as ``y[tile]``: Helion broadcasts those axes along
the tile, as it does for a tile loop of known rank."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def add_unit_axes(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """``x + y`` for ``y`` of x's rank whose sizes are x's or 1."""
    out = torch.empty_like(x)
    for tile in hl.tile(out.size()):
        out[tile] = x[tile] + y[tile]
    return out


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    y = torch.randn([1, n], device="cuda")
    torch.testing.assert_close(add_unit_axes(x, y), x + y)


if __name__ == "__main__":
    check(1024, 1024)
