"""A matrix product of two operands converted to float32 first: both dtypes are known when
compiling, so the product is written out as ``jnp.dot`` (HIGHEST precision) rather than
through the ``_dot`` helper that decides while JAX traces."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def matmul_upcast(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """x [m, k] @ y [k, n] in float32 whatever the inputs' dtypes."""
    m, k = x.size()
    k2, n = y.size()
    assert k == k2
    out = torch.empty([m, n], dtype=torch.float32, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for tile_k in hl.tile(k):
            a = x[tile_m, tile_k].to(torch.float32)
            b = y[tile_k, tile_n].to(torch.float32)
            acc = acc + torch.matmul(a, b)
        out[tile_m, tile_n] = acc
    return out
