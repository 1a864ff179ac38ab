import torch

import helion
import helion.language as hl


# `hl.grid`'s step: a positive int known before the kernel runs, one per grid dimension, and
# given once (by position or as `step=`).
@helion.kernel()
def zero_step(x: torch.Tensor) -> torch.Tensor:
    out = torch.zeros_like(x)
    for i in hl.grid(0, x.size(0), 0):
        out[i] = x[i]
    for i in hl.grid(x.size(0), step=-2):
        out[i] = x[i]
    return out


@helion.kernel()
def steps_per_dim(x: torch.Tensor) -> torch.Tensor:
    out = torch.zeros_like(x)
    for i, j in hl.grid([0, 0], [x.size(0), x.size(1)], [2]):
        out[i, j] = x[i, j]
    return out


@helion.kernel()
def device_step(x: torch.Tensor, steps: torch.Tensor) -> torch.Tensor:
    out = torch.zeros_like(x)
    for i in hl.grid(x.size(0)):
        for j in hl.grid(x.size(1), step=steps[i]):
            out[i, j] = x[i, j]
    return out


@helion.kernel()
def step_twice(x: torch.Tensor) -> torch.Tensor:
    out = torch.zeros_like(x)
    for i in hl.grid(0, x.size(0), 2, step=2):
        out[i] = x[i]
    return out


@helion.kernel()
def tile_step(x: torch.Tensor) -> torch.Tensor:
    out = torch.zeros_like(x)
    for tile in hl.tile(0, x.size(0), 2):
        out[tile] = x[tile]
    return out
