"""`hl.grid(begin, end, step)` in its list form at the top of a kernel: one grid step per
visited `(i, j)`, `cdiv(end - begin, step)` of them along each axis, each index `begin + k *
step` (a scalar index the BlockSpec's index map computes). The elements the steps skip keep
`out`'s zeros."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def grid_steps(x: torch.Tensor) -> torch.Tensor:
    """``x[i, j] * 2 + j`` at rows 1, 3, 5, ... and columns 0, 3, 6, ... of ``x`` [n, m], zeros
    elsewhere."""
    n, m = x.size()
    out = torch.zeros_like(x)
    for i, j in hl.grid([1, 0], [n, m], [2, 3]):
        out[i, j] = x[i, j] * 2 + j
    return out


def check(n: int, m: int) -> None:
    x = torch.randn([n, m], device="cuda")
    expected = torch.zeros_like(x)
    columns = torch.arange(0, m, 3, device="cuda", dtype=x.dtype)
    expected[1::2, 0::3] = x[1::2, 0::3] * 2 + columns
    torch.testing.assert_close(grid_steps(x), expected)


if __name__ == "__main__":
    check(8, 9)
