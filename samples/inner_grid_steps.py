"""An inner `hl.grid(end, step=stride)` with a step known only when the kernel is called: the
loop runs `cdiv(m, stride)` tiles of one element, its index `j` the tile's begin times the step.
The module checks that the step is positive before the launch, as the count of steps assumes."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def inner_grid_steps(x: torch.Tensor, stride: int = 4) -> torch.Tensor:
    """For each row of ``x`` [n, m], ``x[i, j] - x[i, 0]`` at columns ``j`` = 0, stride,
    2 * stride, ... and zeros elsewhere."""
    n, m = x.size()
    out = torch.zeros_like(x)
    for i in hl.grid(n):
        for j in hl.grid(m, step=stride):
            out[i, j] = x[i, j] - x[i, 0]
    return out


def check(n: int, m: int, stride: int) -> None:
    x = torch.randn([n, m], device="cuda")
    expected = torch.zeros_like(x)
    expected[:, ::stride] = x[:, ::stride] - x[:, :1]
    torch.testing.assert_close(inner_grid_steps(x, stride), expected)


if __name__ == "__main__":
    check(4, 130, 4)
