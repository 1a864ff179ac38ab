"""bf16 in, float32 math, bf16 out."""

import torch

import helion
import helion.language as hl


@helion.kernel()
def silu_bf16(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m, n], dtype=torch.bfloat16, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        xf = x[tile_m, tile_n].to(torch.float32)
        out[tile_m, tile_n] = (xf * torch.sigmoid(xf)).to(torch.bfloat16)
    return out
