"""A carried value rebound to another tensor's axes: `state` starts as `init[:, :]` ([h, w] of
`init`) and each step rebinds it to the step's row of `x` (`x[t.begin, :, :]`, [h, w] of `x`).
Helion specializes shapes, so the two agree when the kernel is called; the module checks
`init.size(0) == x.size(1)` and `init.size(1) == x.size(2)` while JAX traces."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def shifted_state(x: torch.Tensor, init: torch.Tensor) -> torch.Tensor:
    """``out[t] = x[t] + x[t - 1]`` (``init`` for t = 0), ``x`` [steps, h, w], ``init``
    [h, w]."""
    steps = x.size(0)
    out = torch.empty_like(x)
    for g in hl.grid(1):
        state = init[:, :].to(torch.float32)
        for t in hl.tile(steps, block_size=1):
            row = x[t.begin, :, :].to(torch.float32)
            out[t.begin, :, :] = (row + state).to(out.dtype)
            state = row
    return out


def check(steps: int, h: int, w: int) -> None:
    x = torch.randn([steps, h, w], device="cuda")
    init = torch.randn([h, w], device="cuda")
    expected = x + torch.cat([init[None], x[:-1]])
    torch.testing.assert_close(shifted_state(x, init), expected)


if __name__ == "__main__":
    check(9, 2, 128)
