"""Softplus with a ``beta`` and a bool switch between the stable and the naive formula."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.jit
def softplus(x: torch.Tensor, beta: float = 1.0, stable: bool = True) -> torch.Tensor:
    """``log(1 + exp(beta * x)) / beta`` over a tensor of any rank."""
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        v = x[tile] * beta
        if stable:
            # log(1 + exp(v)) = max(v, 0) + log(1 + exp(-|v|)), which cannot overflow
            y = torch.maximum(v, torch.zeros_like(v)) + torch.log(1.0 + torch.exp(-torch.abs(v)))
        else:
            y = torch.log(1.0 + torch.exp(v))
        out[tile] = y / beta
    return out


def check() -> None:
    x = torch.randn(4096, 4096, device="cuda")
    torch.testing.assert_close(softplus(x, 2.0), torch.nn.functional.softplus(x, beta=2.0, threshold=100.0))


if __name__ == "__main__":
    check()
