"""One result per block of a tile loop whose block size the source fixes: ``out[tile.id]``
gets each block's sum, a scalar index on the (only) axis of ``out``, and ``marks[tile.begin]``
marks where each block starts. helionc keeps each output whole in its block, resident across the
steps (README, "Stores that pick elements")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def block_totals(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The sums of ``x``'s blocks of 128 (the last one partial) in float32, and a mask of the
    blocks' first elements."""
    (n,) = x.size()
    out = torch.zeros([(n + 127) // 128], dtype=torch.float32, device=x.device)
    marks = torch.zeros_like(x)
    for tile in hl.tile(n, block_size=128):
        out[tile.id] = x[tile].to(torch.float32).sum(dim=0)
        marks[tile.begin] = 1.0
    return out, marks


def check(n: int) -> None:
    x = torch.randn([n], device="cuda")
    sums = torch.stack([c.sum() for c in x.split(128)])
    marks = torch.zeros_like(x)
    marks[::128] = 1.0
    got = block_totals(x)
    torch.testing.assert_close(got[0], sums, rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(got[1], marks)


if __name__ == "__main__":
    check(1000)
