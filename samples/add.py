"""Elementwise addition with broadcasting and dtype promotion.

Adapted from Helion's examples/add.py: the inputs are broadcast against each other, the output
takes the promoted dtype, and one tile loop over the output's full shape (whatever its rank)
does the work.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Return ``x + y`` broadcast to a common shape, in the promoted dtype."""
    x, y = torch.broadcast_tensors(x, y)
    out = torch.empty(
        x.shape,
        dtype=torch.promote_types(x.dtype, y.dtype),
        device=x.device,
    )
    for tile in hl.tile(out.size()):
        out[tile] = x[tile] + y[tile]
    return out


def check(m: int, n: int) -> None:
    """Compare against PyTorch (needs a GPU and Helion; helionc ignores this)."""
    from helion._testing import run_example

    x = torch.randn([m, n], device="cuda", dtype=torch.float16)
    y = torch.randn([n], device="cuda", dtype=torch.float16)
    run_example(add, torch.add, (x, y))


def main() -> None:
    check(1024, 1024)


if __name__ == "__main__":
    main()
