"""A static `if` on a bool parameter picks one of two activations."""

import torch

import helion
import helion.language as hl


@helion.kernel()
def activation(x: torch.Tensor, use_tanh: bool = False) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        v = x[tile]
        if use_tanh:
            out[tile] = torch.tanh(v)
        else:
            out[tile] = torch.sigmoid(v)
    return out
