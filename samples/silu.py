"""SiLU (swish) activation, ``x * sigmoid(x)``, over a flat 1-D tensor."""

from __future__ import annotations

import torch
import torch.nn.functional as F

import helion
import helion.language as hl


@helion.kernel
def silu(x: torch.Tensor) -> torch.Tensor:
    """SiLU of a 1-D tensor (flatten first for other ranks)."""
    n = x.size(0)
    out = x.new_empty(x.shape)
    for tile_n in hl.tile(n):
        v = x[tile_n]
        out[tile_n] = v * torch.sigmoid(v)
    return out


def silu_any_rank(x: torch.Tensor) -> torch.Tensor:
    """Not a kernel: a host-side wrapper that helionc skips."""
    return silu(x.reshape(-1)).reshape(x.shape)


def check() -> None:
    x = torch.randn(1 << 20, device="cuda", dtype=torch.bfloat16)
    torch.testing.assert_close(silu(x), F.silu(x), rtol=1e-2, atol=1e-2)


if __name__ == "__main__":
    check()
