# RUN-ARGS: --shapes 'x=1024x1024:bf16,y=1024x1024:bf16;x=1000x300:f32,y=300x700:f32'
"""The matmul of issue 4 (an inner loop over k carrying an f32 accumulator) under its default
config for two calls given with --shapes, and per-shape entries that pick other strategies."""

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def matmul(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    m, k = x.size()
    k2, n = y.size()
    out = torch.empty([m, n], dtype=x.dtype, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for tile_k in hl.tile(k):
            acc = torch.addmm(acc, x[tile_m, tile_k], y[tile_k, tile_n])
        out[tile_m, tile_n] = acc.to(x.dtype)
    return out
