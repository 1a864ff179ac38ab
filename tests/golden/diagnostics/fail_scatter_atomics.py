import torch
import helion
import helion.language as hl


@helion.kernel
def scatter_max(out: torch.Tensor, v: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    # Only an add combines repeated indices here.
    for tile in hl.tile(v.size(0)):
        hl.atomic_max(out, [ids[tile]], v[tile])
    return out


@helion.kernel
def scatter_add_old(out: torch.Tensor, v: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    # The old values would depend on the order the repeated indices add in.
    seen = torch.empty_like(v)
    for tile in hl.tile(v.size(0)):
        seen[tile] = hl.atomic_add(out, [ids[tile]], v[tile])
    return seen

