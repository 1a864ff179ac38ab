"""Looks like a kernel file, but the decorator was forgotten."""

import torch

import helion
import helion.language as hl


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(out.size()):
        out[tile] = x[tile] + y[tile]
    return out
