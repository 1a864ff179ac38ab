"""The difference of each pair of neighbouring elements along the rows.

Exercises slices with literal and negative bounds that are not lane-aligned (`x[tile_m, 1:]`,
`x[tile_m, :-1]`): both read the one block of `x`, whole along its rows, with Python's slice
semantics; the result is one column narrower than `x`.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def neighbour_diff(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m, n - 1], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        out[tile_m, :] = x[tile_m, 1:] - x[tile_m, :-1]
    return out


def check() -> None:
    x = torch.randn(1000, 300, device="cuda")
    torch.testing.assert_close(neighbour_diff(x), x[:, 1:] - x[:, :-1])


if __name__ == "__main__":
    check()
