# RUN-ARGS: -Werror
import torch

import helion
import helion.language as hl


@helion.kernel()
def positive_mask(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m, n], dtype=torch.int64, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        out[tile_m, tile_n] = (x[tile_m, tile_n] > 0).to(torch.int32)
    return out


@helion.kernel()
def doubled(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty(x.size(), dtype=torch.float64, device=x.device)
    for tile in hl.tile(x.size()):
        out[tile] = x[tile].double() * 2
    return out
