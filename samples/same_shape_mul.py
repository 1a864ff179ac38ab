"""Elementwise product of two tensors that must have one shape, of any rank.

The kernel checks the shapes first, as Helion's GEGLU and SwiGLU examples do
(``assert a.shape == b.shape, (...)``), and its rank (``len(a.size())``): the checks run
while JAX traces the call.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def same_shape_mul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    assert len(a.size()) >= 1, "same_shape_mul needs arrays, not 0-d values"
    assert a.shape == b.shape, (
        "same_shape_mul needs inputs of one shape"
    )
    out = torch.empty_like(a)
    for tile in hl.tile(out.size()):
        out[tile] = a[tile] * b[tile]
    return out
