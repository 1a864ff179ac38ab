"""An `hl.grid` inside an `hl.grid`: as in Helion, the inner one runs tiles of one element, its
index `j` the tile's begin. `x[i, (j + 1) % m]` and `out[i, j]` index with `j`, which moves
inside one kernel invocation, so their rows are whole in VMEM and the kernel picks and puts the
element (README, "Scalar indices computed in the kernel"); `j` is also a number the body
computes with."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def grid_in_grid(x: torch.Tensor) -> torch.Tensor:
    """``2 * x.roll(-1, dims=1) + j`` for ``x`` [n, m], ``j`` the column."""
    n, m = x.size()
    out = torch.zeros_like(x)
    for i in hl.grid(n):
        for j in hl.grid(m):
            out[i, j] = x[i, (j + 1) % m] * 2 + j
    return out


def check(n: int, m: int) -> None:
    x = torch.randn([n, m], device="cuda")
    columns = torch.arange(m, device="cuda", dtype=x.dtype)
    torch.testing.assert_close(grid_in_grid(x), 2 * x.roll(-1, dims=1) + columns)


if __name__ == "__main__":
    check(4, 128)
