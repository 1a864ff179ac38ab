"""One loop over the first half of a 1-D array writes both halves: `out[tile]` and
`out[tile.index + half]`. The stores disagree on the array's only axis (a tile against a tile
of indices), so `out`'s block holds all of it and each store scatters into it (README, "Stores
that pick elements"); `out` starts as zeros, which the middle element of an odd length keeps."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def two_halves(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """``2 * x`` on the first ``n // 2`` elements, ``y - 1`` on the next ``n // 2``, and 0 on
    the last element when ``n`` is odd, for 1-D ``x`` and ``y`` of length ``n``."""
    (n,) = x.size()
    half = n // 2
    out = torch.zeros_like(x)
    for tile in hl.tile(half):
        out[tile] = x[tile] * 2
        out[tile.index + half] = y[tile.index + half] - 1
    return out


def check(n: int) -> None:
    x = torch.randn([n], device="cuda")
    y = torch.randn([n], device="cuda")
    half = n // 2
    expected = torch.zeros_like(x)
    expected[:half] = 2 * x[:half]
    expected[half : 2 * half] = y[half : 2 * half] - 1
    torch.testing.assert_close(two_halves(x, y), expected)


if __name__ == "__main__":
    check(257)
