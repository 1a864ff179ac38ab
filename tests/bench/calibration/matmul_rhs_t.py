"""The Pallas TPU matmul guide's "fused right-hand-side transpose" kernel as Helion writes it:
``x @ y.T`` with y stored as [n, k], the transpose folded into the product. A calibration case
of tests/bench/calibrate.py (the guide times it on v5e)."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def matmul_rhs_t(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """``x @ y.T`` for x [m, k] and y [n, k]."""
    m, k = x.size()
    n, k2 = y.size()
    assert k == k2, f"size mismatch {k} != {k2}"
    out = torch.empty([m, n], dtype=x.dtype, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for tile_k in hl.tile(k):
            acc = torch.addmm(acc, x[tile_m, tile_k], y[tile_n, tile_k].T)
        out[tile_m, tile_n] = acc.to(x.dtype)
    return out
