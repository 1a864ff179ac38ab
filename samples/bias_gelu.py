"""Bias add followed by GELU (tanh approximation), the epilogue of an MLP's first matmul."""

from __future__ import annotations

import math

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def bias_gelu(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """``gelu(x + bias, approximate="tanh")`` for x of shape [m, n] and bias of shape [n]."""
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        v = x[tile_m, tile_n] + bias[tile_n]
        # 0.7978845608028654 = sqrt(2 / pi)
        inner = 0.7978845608028654 * (v + 0.044715 * v * v * v)
        out[tile_m, tile_n] = 0.5 * v * (1.0 + torch.tanh(inner))
    return out


def check(m: int = 4096, n: int = 4096) -> None:
    x = torch.randn(m, n, device="cuda", dtype=torch.float32)
    bias = torch.randn(n, device="cuda", dtype=torch.float32)
    expected = torch.nn.functional.gelu(x + bias, approximate="tanh")
    torch.testing.assert_close(bias_gelu(x, bias), expected, rtol=1e-5, atol=1e-5)
    assert math.isclose(0.7978845608028654, math.sqrt(2 / math.pi))


if __name__ == "__main__":
    check()
