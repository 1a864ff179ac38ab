"""2-D input plus a 1-D bias, then tanh-GELU; block sizes from bias_gelu.yaml."""

import torch

import helion
import helion.language as hl


@helion.kernel()
def bias_gelu(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        v = x[tile_m, tile_n] + bias[tile_n]
        out[tile_m, tile_n] = torch.nn.functional.gelu(v, approximate="tanh")
    return out
