"""Several grid steps add into one output block: the loop runs over ``[k, m, n]`` and every
``k`` step adds its slice's sum into ``out[tile_m, tile_n]`` with ``hl.atomic_add``. The output
starts at one, so the old contents count. helionc orders the grid with ``k`` innermost (the loop
is written with it outermost), reads the block back from the output between the steps and marks
the ``k`` axis ``"arbitrary"`` (README, "Atomic updates")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def atomic_contributions(x: torch.Tensor) -> torch.Tensor:
    """``1 + x.sum(0)`` for a 3-D ``x``, one contribution per block of ``k``."""
    k, m, n = x.shape
    out = torch.ones([m, n], dtype=x.dtype, device=x.device)
    for tile_k, tile_m, tile_n in hl.tile([k, m, n]):
        contribution = torch.sum(x[tile_k, tile_m, tile_n], dim=0)
        hl.atomic_add(out, [tile_m, tile_n], contribution)
    return out


def check(k: int, m: int, n: int) -> None:
    x = torch.randn([k, m, n], device="cuda")
    torch.testing.assert_close(atomic_contributions(x), 1 + x.sum(0), rtol=1e-4, atol=1e-4)


if __name__ == "__main__":
    check(16, 256, 512)
