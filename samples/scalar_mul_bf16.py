"""A bf16 tile times a Python float, widened to float32. PyTorch computes `x * 0.18033688` with
the float kept in float32 (opmath: the number is never rounded to bf16) and rounds the product
once to bf16. JAX's weak typing would round the number to bf16 first (0.18033688 -> 0.18066406),
an error far beyond float32 tolerance once widened; helionc prints such products through the
module's `_scalar_op`, which computes them PyTorch's way."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def scale_bf16(x: torch.Tensor, scale: float = 0.18033688) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m, n], dtype=torch.float32, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        out[tile_m, tile_n] = (x[tile_m, tile_n] * scale).to(torch.float32)
    return out
