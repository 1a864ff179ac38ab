"""Tuple assignments: ``a, b = x[...], y[...]`` binds each name to its element, and
``a, b = torch.where(swap, b, a), torch.where(swap, a, b)`` reads the old ``a`` and ``b`` on
its right side before either is rebound (Python evaluates the whole right side first)."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def sorted_pair(x: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The elementwise minimum and maximum of ``x`` and ``y`` [m, n]."""
    m, n = x.size()
    lo, hi = torch.empty_like(x), torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        a, b = x[tile_m, tile_n], y[tile_m, tile_n]
        swap = a > b
        a, b = torch.where(swap, b, a), torch.where(swap, a, b)
        lo[tile_m, tile_n] = a
        hi[tile_m, tile_n] = b
    return lo, hi


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    y = torch.randn([m, n], device="cuda")
    lo, hi = sorted_pair(x, y)
    torch.testing.assert_close(lo, torch.minimum(x, y))
    torch.testing.assert_close(hi, torch.maximum(x, y))


if __name__ == "__main__":
    check(1024, 1024)
