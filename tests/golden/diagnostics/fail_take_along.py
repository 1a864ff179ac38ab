import torch

import helion
import helion.language as hl


# torch.gather's indices are positions along the whole tensor axis, so the value must hold that
# axis whole; on the other axes value and indices have one shape.
@helion.kernel()
def blocked_gather(x: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    out = torch.empty(index.size(), dtype=x.dtype, device=x.device)
    for rows, cols in hl.tile(index.size()):
        out[rows, cols] = torch.gather(x[rows, cols], 1, index[rows, cols])
    return out


@helion.kernel()
def float_positions(x: torch.Tensor, where: torch.Tensor) -> torch.Tensor:
    out = torch.empty(where.size(), dtype=x.dtype, device=x.device)
    for rows in hl.tile(where.size(0)):
        out[rows, :] = torch.gather(x[rows, :], 1, where[rows, :].to(torch.float32))
    return out
