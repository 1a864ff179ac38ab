"""``hl.randint`` on a one-dimensional tile: a bin in ``[low, high)`` per element of ``x``, from
Helion's counter-based generator (the same numbers for every block size), plus the bins added
to ``x`` (so the draw feeds arithmetic, not only a store)."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def random_bins(x: torch.Tensor, seed: int = 1) -> tuple[torch.Tensor, torch.Tensor]:
    """``(bins, x + bins)`` with ``bins`` uniform integers in ``[-5, 17)``."""
    (n,) = x.size()
    bins = torch.empty([n], dtype=torch.int32, device=x.device)
    shifted = torch.empty_like(x)
    for tile in hl.tile(n):
        drawn = hl.randint([tile], low=-5, high=17, seed=seed)
        bins[tile] = drawn
        shifted[tile] = x[tile] + drawn.to(x.dtype)
    return bins, shifted


def check(n: int) -> None:
    x = torch.randn([n], device="cuda")
    bins, shifted = random_bins(x, 3)
    assert int(bins.min()) >= -5 and int(bins.max()) < 17
    torch.testing.assert_close(shifted, x + bins.float())


if __name__ == "__main__":
    check(1 << 20)
