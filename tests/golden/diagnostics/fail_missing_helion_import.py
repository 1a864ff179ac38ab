"""A kernel file that forgot `import helion`: the error is the missing import, at the
decorator, not "no Helion kernels found"."""

import torch

import helion.language as hl


@helion.kernel()
def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(out.size()):
        out[tile] = x[tile] + y[tile]
    return out
