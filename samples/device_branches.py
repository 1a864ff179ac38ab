"""`if` on values known only when the kernel runs, with stores in the branches: a flag read
from a tensor picks one of two updates of each row block (`if`/`else`), a row count read per
block skips short blocks (`if` alone, the output keeps its old values there), and `elif` on
the grid index chooses one of three scalings of each row."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def device_branches(
    x: torch.Tensor, flags: torch.Tensor, out: torch.Tensor, limit: int = 2
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    m, n = x.size()
    scaled = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        v = x[tile_m, tile_n]
        if flags[0] > 0:
            scaled[tile_m, tile_n] = v * 2.0
        else:
            half = v * 0.5
            scaled[tile_m, tile_n] = half - 1.0
        if flags[1] >= limit:
            out[tile_m, tile_n] = out[tile_m, tile_n] + v
    picked = torch.empty_like(x)
    for i in hl.grid(m):
        row = x[i, :]
        if i % 3 == 0:
            picked[i, :] = row
        elif i % 3 == 1:
            picked[i, :] = -row
        else:
            picked[i, :] = row * 3.0
    return scaled, out, picked
