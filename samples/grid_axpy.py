"""``alpha * x + y`` one element per grid step, for inputs of any rank.

``hl.grid(x.size())`` steps over every element of ``x``; a body that only works element by
element gives the same values over a block of elements per step, which is how helionc runs it
(as ``hl.tile(x.size())``, tuned by ``block_sizes``).
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def grid_axpy(x: torch.Tensor, y: torch.Tensor, alpha: float = 2.0) -> torch.Tensor:
    out = torch.empty_like(x)
    for index in hl.grid(x.size()):
        scaled = alpha * x[index]
        out[index] = scaled + y[index]
    return out
