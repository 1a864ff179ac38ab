"""Dtype tests in host code, as Helion's examples write them: ``assert x.dtype == y.dtype`` and
``if x.dtype == torch.bfloat16:`` choosing the accumulation dtype. Both are settled while JAX
traces, once per input dtype."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def dtype_add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """``x + y`` for ``x`` and ``y`` [m, n] of one dtype; bfloat16 adds (and returns) float32."""
    assert x.dtype == y.dtype, "x and y must have one dtype"
    m, n = x.size()
    if x.dtype == torch.bfloat16:
        acc_dtype = torch.float32
    else:
        acc_dtype = x.dtype
    out = torch.empty([m, n], dtype=acc_dtype, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        out[tile_m, tile_n] = x[tile_m, tile_n].to(acc_dtype) + y[tile_m, tile_n].to(acc_dtype)
    return out


if __name__ == "__main__":
    x = torch.randn([64, 256], device="cuda", dtype=torch.bfloat16)
    print(dtype_add(x, x).dtype)
