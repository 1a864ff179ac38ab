"""Scatter-adds through ``hl.arange`` indices from every step of a loop: each block of rows adds
its column sums into ``out`` at ``hl.arange(16, n + 16)`` (shifted) and into ``spread`` at
``hl.arange(0, 2 * n, step=2)`` (every other element). No index repeats within a step, but every
step adds into the same elements, so the outputs stay resident across the steps (run
"arbitrary") and each step adds with a one-hot (``_scatter(..., add=True)``). README, "Atomic
updates"."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def arange_scatter_add(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Column sums of ``x`` at ``out[16:]`` (zeros before) and at ``spread[::2]`` (zeros
    between)."""
    m, n = x.shape
    n = hl.specialize(n)
    out = torch.zeros([n + 16], dtype=x.dtype, device=x.device)
    spread = torch.zeros([2 * n], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        sums = torch.sum(x[tile_m, :].to(torch.float32), dim=0)
        hl.atomic_add(out, [hl.arange(16, n + 16)], sums.to(x.dtype))
        hl.atomic_add(spread, [hl.arange(0, 2 * n, step=2)], sums)
    return out, spread


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    out, spread = arange_scatter_add(x)
    torch.testing.assert_close(out[16:], x.sum(0), rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(spread[::2], x.sum(0), rtol=1e-4, atol=1e-4)


if __name__ == "__main__":
    check(512, 256)
