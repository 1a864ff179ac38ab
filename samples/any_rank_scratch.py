"""A rank-polymorphic loop over one array's shape that stores into another parameter
(`for tile in hl.tile(x.size()): scratch[tile] = ...`). Helion specializes shapes and such
kernels pass arrays of one shape; the module checks while JAX traces that `scratch` has x's
shape, so the loop covers it, and returns the updated `scratch` after `out` (README "Kernels
that update their parameters")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def any_rank_scratch(x: torch.Tensor, scratch: torch.Tensor) -> torch.Tensor:
    """``out = 2 * (x + 1)``, with ``scratch`` (x's shape, any rank) set to ``x + 1``."""
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        scratch[tile] = x[tile] + 1.0
        out[tile] = scratch[tile] * 2.0
    return out


def check(*shape: int) -> None:
    x = torch.randn(shape, device="cuda")
    scratch = torch.empty_like(x)
    torch.testing.assert_close(any_rank_scratch(x, scratch), 2 * (x + 1))
    torch.testing.assert_close(scratch, x + 1)


if __name__ == "__main__":
    check(128, 128)
