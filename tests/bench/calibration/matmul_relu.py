"""The Pallas TPU matmul guide's "fused activation" kernel as Helion writes it: the matmul of
samples/matmul.py with ``torch.relu`` applied to the float32 accumulator before the store. A
calibration case of tests/bench/calibrate.py (the guide times it on v5e)."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def matmul_relu(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """``relu(x @ y)`` for x [m, k] and y [k, n]."""
    m, k = x.size()
    k2, n = y.size()
    assert k == k2, f"size mismatch {k} != {k2}"
    out = torch.empty([m, n], dtype=x.dtype, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for tile_k in hl.tile(k):
            acc = torch.addmm(acc, x[tile_m, tile_k], y[tile_k, tile_n])
        out[tile_m, tile_n] = torch.relu(acc)
    return out
