"""Host stores into a parameter the kernel updates in place, through a view: the loop adds `y`
to `x`, then `flat = x.view(-1)` and `flat[0] = 0.0`, `flat[-1] = 1.0` set its first and last
elements. PyTorch's caller sees `x` change; the generated function returns the updated `x`
(README "Kernels that update their parameters"), the view's stores written back into x's
shape."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def host_clear_ends(x: torch.Tensor, y: torch.Tensor) -> None:
    """``x += y`` for ``x``, ``y`` [rows, width], then x's first element 0 and last 1."""
    for tile in hl.tile(x.size(0)):
        x[tile, :] = x[tile, :] + y[tile, :]
    flat = x.view(-1)
    flat[0] = 0.0
    flat[-1] = 1.0


def check(rows: int, width: int) -> None:
    x = torch.randn([rows, width], device="cuda")
    y = torch.randn([rows, width], device="cuda")
    expected = x + y
    expected.view(-1)[0] = 0.0
    expected.view(-1)[-1] = 1.0
    host_clear_ends(x, y)
    torch.testing.assert_close(x, expected)


if __name__ == "__main__":
    check(16, 128)
