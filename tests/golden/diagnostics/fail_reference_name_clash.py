"""Every module defines `reference_<kernel>` for each kernel: a kernel named like another
kernel's reference would replace it, so the name is refused."""

import torch

import helion
import helion.language as hl


@helion.kernel()
def scale(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = x[tile] * 2
    return out


@helion.kernel()
def reference_scale(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = x[tile] * 3
    return out
