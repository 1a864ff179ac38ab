"""An in-place update: the kernel writes into its parameter ``x`` and returns nothing, as
PyTorch code does with ``x += y``. JAX arrays are immutable, so the generated function returns
the updated ``x`` (README, "Kernels that update their parameters"); under
``jax.jit(add_inplace, donate_argnums=0)`` the update reuses ``x``'s buffer."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def add_inplace(x: torch.Tensor, y: torch.Tensor) -> None:
    """``x += y`` for 2-D ``x`` and ``y`` of one shape."""
    m, n = x.size()
    for tile_m, tile_n in hl.tile([m, n]):
        x[tile_m, tile_n] = x[tile_m, tile_n] + y[tile_m, tile_n]


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    y = torch.randn([m, n], device="cuda")
    expected = x + y
    add_inplace(x, y)
    torch.testing.assert_close(x, expected)


if __name__ == "__main__":
    check(1024, 1024)
