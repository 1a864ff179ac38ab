"""A bf16 tile times a Python float, widened to float32. PyTorch computes `x * 0.18033688` with
the float kept in float32 (opmath; the scalar is never rounded to bf16) and rounds the product
once to bf16. helionc's generated `x_ref[...] * scale` differs twice (seen in the interpreter on
CPU): JAX's weak typing rounds the scalar to bf16 first (0.18033688 -> 0.18066406), and XLA's
excess precision drops the bf16 rounding of the product before `.astype(jnp.float32)`
(-0.18772125 where PyTorch gives -0.1875). Widened to float32 the difference is far beyond float32
tolerance. The first is what moves the float32 LSE of bf16 flash attention (attention_lse_bf16.py)."""

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
