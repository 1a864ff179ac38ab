"""bf16 in, float32 math, bf16 out, with a float scalar argument."""

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def geglu(x: torch.Tensor, y: torch.Tensor, scale: float = 1.0) -> torch.Tensor:
    m = x.size(0)
    n = x.shape[1]
    out = torch.empty((m, n), dtype=torch.bfloat16, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        xf = x[tile_m, tile_n].to(torch.float32)
        yf = y[tile_m, tile_n].to(torch.float32)
        gelu = 0.5 * xf * (1.0 + torch.erf(xf * 0.7071067811865476))
        out[tile_m, tile_n] = (scale * gelu * yf).to(torch.bfloat16)
    return out
