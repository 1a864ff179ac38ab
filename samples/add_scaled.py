"""A scaled sum ``alpha * x + beta * y`` with float arguments that have defaults."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def add_scaled(
    x: torch.Tensor,
    y: torch.Tensor,
    alpha: float = 1.0,
    beta: float = 0.5,
) -> torch.Tensor:
    """``alpha * x + beta * y`` for same-shape, same-dtype tensors of any rank."""
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = alpha * x[tile] + beta * y[tile]
    return out


def reference(x: torch.Tensor, y: torch.Tensor, alpha: float = 1.0, beta: float = 0.5) -> torch.Tensor:
    return alpha * x + beta * y


def main() -> None:
    x = torch.randn(2048, 512, device="cuda")
    y = torch.randn(2048, 512, device="cuda")
    torch.testing.assert_close(add_scaled(x, y, 2.0, -1.0), reference(x, y, 2.0, -1.0))


if __name__ == "__main__":
    main()
