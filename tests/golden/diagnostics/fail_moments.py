import torch

import helion
import helion.language as hl


# Bessel's correction needs the reduced element count: known for a whole axis, not for a
# tile's block (its live length differs between blocks). `correction` and `unbiased` say the
# same thing, so both at once is an error; integer tiles have no variance.
@helion.kernel()
def tile_variance(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile(x.size()):
        block = x[tile_m, tile_n]
        out[tile_m, tile_n] = block - block.var(dim=1, keepdim=True)
    return out


@helion.kernel()
def both_corrections(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile_m in hl.tile(x.size(0)):
        row = x[tile_m, :]
        out[tile_m, :] = row - torch.var(row, dim=1, keepdim=True, correction=0, unbiased=True)
    return out


@helion.kernel()
def integer_spread(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty([x.size(0)], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(x.size(0)):
        out[tile_m] = x[tile_m, :].to(torch.int32).std(dim=1)
    return out
