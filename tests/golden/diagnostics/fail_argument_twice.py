import torch

import helion
import helion.language as hl


# An argument given by position and again by keyword is an error, as in Python; so is a full
# reduction (no `dim`) that asks for `keepdim` or for a flat index, and a dimension reduced twice.
@helion.kernel()
def fill_twice(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        ones = hl.full([tile], 1.0, torch.float32, dtype=torch.bfloat16)
        out[tile] = x[tile] + ones
    return out


@helion.kernel()
def kept_total(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = x[tile] - x[tile].sum(keepdim=True)
    return out


@helion.kernel()
def flat_argmax(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = x[tile] + x[tile].argmax()
    return out


@helion.kernel()
def twice_reduced(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = x[tile] - x[tile].sum([0, -1])
    return out
