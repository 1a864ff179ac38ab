"""Python's ``min`` and ``max`` of a 0-d value read in an ``hl.grid`` loop (``values[i]``):
device values, which the module compares with ``jnp.minimum``/``jnp.maximum``."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def grid_clamp(values: torch.Tensor, lo: float = -0.5, hi: float = 0.5) -> torch.Tensor:
    """Each element of ``values`` clamped to ``[lo, hi]``, one element per grid step."""
    out = torch.zeros_like(values)
    for i in hl.grid(values.size(0)):
        out[i] = min(max(values[i], lo), hi)
    return out


def reference(values: torch.Tensor, lo: float = -0.5, hi: float = 0.5) -> torch.Tensor:
    return values.clamp(lo, hi)


def main() -> None:
    values = torch.randn(300, device="cuda")
    torch.testing.assert_close(grid_clamp(values), reference(values))


if __name__ == "__main__":
    main()
