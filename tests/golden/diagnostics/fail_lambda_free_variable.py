from typing import Callable

import torch

import helion
import helion.language as hl


@helion.kernel()
def matmul_bias(
    x: torch.Tensor,
    y: torch.Tensor,
    bias: torch.Tensor,
    epilogue: Callable[[torch.Tensor, tuple[torch.Tensor, ...]], torch.Tensor] = lambda acc, tile: acc + bias[tile[1]],
) -> torch.Tensor:
    m, k = x.size()
    n = y.size(1)
    out = torch.empty([m, n], dtype=x.dtype, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        out[tile_m, tile_n] = epilogue(x[tile_m, :] @ y[:, tile_n], (tile_m, tile_n))
    return out
