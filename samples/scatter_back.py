"""Stores in host code: the kernel gathers the rows of `x` in the order `perm` (host code), scales
them in a tile loop, scatters them back with `result[perm] = out`, sets the first row with
`result[0, :] = -1.0` and adds to one element with `result[-1, 0] += 10.0`, all after the loop.
JAX arrays are immutable, so each host store is `result = result.at[...].set(...)` (README
"Stores in host code")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def scatter_back(x: torch.Tensor, perm: torch.Tensor) -> torch.Tensor:
    """``2 * x + 1`` (rows gathered by ``perm`` and scattered back), the first row -1, the last
    row's first element 10 more, for ``x`` [rows, width] and ``perm`` a permutation of the
    rows."""
    gathered = x[perm]
    out = torch.empty_like(gathered)
    for tile in hl.tile(out.size(0)):
        out[tile, :] = gathered[tile, :] * 2.0 + 1.0
    result = torch.empty_like(out)
    result[perm] = out
    result[0, :] = -1.0
    result[-1, 0] += 10.0
    return result


def check(rows: int, width: int) -> None:
    x = torch.randn([rows, width], device="cuda")
    perm = torch.randperm(rows, device="cuda")
    expected = x * 2 + 1
    expected[0, :] = -1.0
    expected[-1, 0] += 10.0
    torch.testing.assert_close(scatter_back(x, perm), expected)


if __name__ == "__main__":
    check(64, 128)
