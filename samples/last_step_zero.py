"""A store in host code into a launch's output, as a backward pass clears the gradient of the
last position: the loop writes `out[:, :-1, :]` (its `tile_l` stops one short of the axis), and
`out[:, -1, :] = 0.5` after it sets the rest. `out` starts as `torch.zeros_like`, so the host
store reads the launch's result, never uninitialised memory."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def last_step_zero(x: torch.Tensor) -> torch.Tensor:
    """``exp(x) - 1`` for positions ``0 .. steps - 2``, 0.5 at the last, ``x`` [batch, steps,
    width]."""
    batch, steps, width = x.shape
    out = torch.zeros_like(x)
    for tile_b, tile_l in hl.tile([batch, steps - 1]):
        for tile_w in hl.tile(width):
            out[tile_b, tile_l, tile_w] = torch.exp(x[tile_b, tile_l, tile_w]) - 1.0
    out[:, -1, :] = 0.5
    return out


def check(batch: int, steps: int, width: int) -> None:
    x = torch.randn([batch, steps, width], device="cuda")
    expected = torch.exp(x) - 1
    expected[:, -1, :] = 0.5
    torch.testing.assert_close(last_step_zero(x), expected)


if __name__ == "__main__":
    check(4, 9, 256)
