import torch
import helion
import helion.language as hl


@helion.kernel
def scatter_three_axes(v: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    # Two tiles of indices scatter into both axes of a 2-D array only.
    out = torch.zeros([v.size(0), v.size(0), v.size(2)], dtype=v.dtype, device=v.device)
    for tile in hl.tile(v.size(0)):
        out[ids[tile], ids[tile], :] = v[tile, tile, :]
    return out
