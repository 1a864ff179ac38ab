import torch

import helion
import helion.language as hl


# torch.stack takes tile values of one shape, written out as a list or tuple: the new axis's
# size is their count, which helionc must know when it compiles.
@helion.kernel()
def ragged_stack(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty([2, x.size(0)], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(x.size(0)):
        row = x[tile_m, :]
        out[:, tile_m] = torch.stack([row.sum(1), row])
    return out


@helion.kernel()
def stack_of_chunks(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile_m in hl.tile(x.size(0)):
        parts = (x[tile_m, :], x[tile_m, :])
        out[tile_m, :] = torch.stack(parts, dim=1).sum(1)
    return out
