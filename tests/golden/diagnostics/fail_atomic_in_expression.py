import torch
import helion
import helion.language as hl


@helion.kernel
def running_max(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = hl.atomic_max(x, [tile], y[tile]) * 2.0
    return out


@helion.kernel
def bad_sem(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    for tile in hl.tile(x.size()):
        hl.atomic_add(x, [tile], y[tile], sem="sequential")
    return x
