"""One element per grid step: ``hl.grid`` over a 1-D array, each step reading and writing one
element of ``out`` (a scalar index on the last, here the only, axis). The output starts at
one, so the old contents count. A block one lane wide is illegal on a TPU, so helionc keeps the
whole axis in the output's block, resident across the steps, copies the old contents in at the
first step, and each store writes its element with a lane select (README, "Stores that pick
elements")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def grid_elements(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """``1 + 2 * x + y[::-1]`` element by element, the reversed read through ``n - 1 - i``."""
    (n,) = x.size()
    out = torch.ones_like(x)
    for i in hl.grid(n):
        out[i] = out[i] + x[i] * 2.0 + y[n - 1 - i]
    return out


def check(n: int) -> None:
    x = torch.randn([n], device="cuda")
    y = torch.randn([n], device="cuda")
    torch.testing.assert_close(grid_elements(x, y), 1 + 2 * x + y.flip(0))


if __name__ == "__main__":
    check(300)
