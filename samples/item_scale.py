"""x * scale.item() + bias[-1].item(): numbers read with `.item()`.

`shift` is bound in host code but read only in device code, so the kernel reads the element
itself (from SMEM, as it reads a loop bound from a tensor), and `scale.item()` is written in
device code: the host code needs no concrete value and the module works under `jax.jit`.
`bias[-1]` counts from the end on the host; the kernel reads element `bias.size(0) - 1`.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def item_scale(x: torch.Tensor, scale: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """x * scale + bias[-1] in x's dtype; scale is a 0-d float32 tensor, bias 1-D float32."""
    out = torch.empty_like(x)
    shift = bias[-1].item()
    for tile in hl.tile(x.size()):
        out[tile] = (x[tile].to(torch.float32) * scale.item() + shift).to(x.dtype)
    return out
