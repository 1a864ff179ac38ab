"""Helper functions of the file called from a kernel, as Helion's examples write them: helionc
inlines each call, the helper's parameters standing for the call's arguments. ``_shifted_gelu``
has a local, a default read from the module and calls another helper; the kernel's own
``shift`` is not what the helpers see (a function sees only its parameters, its locals and the
names around its ``def``)."""

from __future__ import annotations

import math

import torch

import helion
import helion.language as hl

OFFSET = 0.5


def _gelu_tanh(v: torch.Tensor) -> torch.Tensor:
    """GELU, tanh approximation."""
    inner = math.sqrt(2.0 / math.pi) * (v + 0.044715 * v * v * v)
    return 0.5 * v * (1.0 + torch.tanh(inner))


def _shifted_gelu(v: torch.Tensor, shift: float = OFFSET) -> torch.Tensor:
    return _gelu_tanh(v) + shift


@helion.kernel(static_shapes=True)
def helper_gelu(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """``gelu(x + bias) + 0.5`` minus ``gelu(x) - 2`` for ``x`` [m, n] and ``bias`` [n]."""
    out = torch.empty_like(x)
    shift = 100.0  # not the helper's `shift`
    for tile_m, tile_n in hl.tile(x.size()):
        v = x[tile_m, tile_n]
        out[tile_m, tile_n] = _shifted_gelu(v + bias[tile_n]) - _shifted_gelu(v, shift=-2.0)
    return out


if __name__ == "__main__":
    x = torch.randn([64, 256], device="cuda")
    bias = torch.randn([256], device="cuda")
    helper_gelu(x, bias)
