"""``hl.atomic_max`` with its value used: the kernel raises ``x`` to ``y`` where ``y`` is larger,
in place, and returns what ``x`` held before. The generated function returns that and, after
it, the updated ``x`` (JAX arrays are immutable: README, "Kernels that update their
parameters")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def atomic_max_update(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """``before = x.clone(); x = max(x, y)``, returning ``before``."""
    m, n = x.size()
    before = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        old = hl.atomic_max(x, [tile_m, tile_n], y[tile_m, tile_n], sem="relaxed")
        before[tile_m, tile_n] = old
    return before


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    y = torch.randn([m, n], device="cuda")
    expected_x = torch.maximum(x, y)
    expected_before = x.clone()
    before = atomic_max_update(x, y)
    torch.testing.assert_close(before, expected_before)
    torch.testing.assert_close(x, expected_x)


if __name__ == "__main__":
    check(1024, 1024)
