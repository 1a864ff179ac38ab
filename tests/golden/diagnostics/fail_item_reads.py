import torch

import helion
import helion.language as hl


@helion.kernel()
def item_of_updated(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    shift = bias[0].item()
    bias[0] = 0.0
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = x[tile] + shift
    return out


@helion.kernel()
def item_of_stored(x: torch.Tensor) -> torch.Tensor:
    total = torch.zeros([1], dtype=torch.float32, device=x.device)
    first = total[0].item()
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = x[tile] + first
        total[0] = 1.0
    return out


@helion.kernel()
def empty_early_return(x: torch.Tensor, count: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    if count.item() == 0:
        return torch.zeros([], dtype=x.dtype, device=x.device)
    for tile in hl.tile(x.size(0)):
        out[tile] = x[tile] * count[0]
    return out


@helion.kernel()
def item_of_a_tile(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = x[tile] * x[tile].item()
    return out
