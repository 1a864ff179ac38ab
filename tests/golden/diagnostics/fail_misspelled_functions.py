"""Misspelled torch and hl functions get a did-you-mean in the user's spelling of the module."""

import torch

import helion
import helion.language as hl


@helion.kernel()
def exp(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = torch.exmp(x[tile])
    return out


@helion.kernel()
def sums(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        acc = hl.zerso([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(n):
            acc += x[tile_m, tile_n].sum(-1)
        out[tile_m] = acc
    return out
