import torch

import helion
import helion.language as hl


@helion.kernel()
def through_alias(x: torch.Tensor) -> torch.Tensor:
    out = torch.zeros_like(x)
    same = out
    for tile in hl.tile(x.size()):
        out[tile] = x[tile] + 1
    same[0] = 5.0
    return out


@helion.kernel()
def view_in_use(x: torch.Tensor) -> torch.Tensor:
    out = torch.zeros_like(x)
    flat = out.view(-1)
    for tile in hl.tile(x.size()):
        out[tile] = x[tile] + 1
    out[0, 0] = 5.0
    return flat


@helion.kernel()
def into_a_copy(x: torch.Tensor) -> torch.Tensor:
    out = torch.zeros_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = x[tile] + 1
    head = out[:2]
    head[0] = 5.0
    return out


@helion.kernel()
def too_many_dims(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    p, q = y.size()
    out = torch.zeros_like(x)
    for tile in hl.tile(m):
        out[tile, :] = x[tile, :]
    out[0] = y
    return out
