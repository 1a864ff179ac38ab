import torch
import helion
import helion.language as hl


@helion.kernel
def noisy(x: torch.Tensor, seeds: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile(x.size()):
        out[tile_m, tile_n] = x[tile_m, tile_n] + hl.rand([tile_m, tile_n], seed=seeds[tile_m])
    return out


@helion.kernel
def bins(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty([x.size(0)], dtype=torch.int32, device=x.device)
    for tile in hl.tile(x.size(0)):
        out[tile] = hl.randint([tile], low=4, high=4, seed=1)
    return out
