# One `pallas_loop_type` string for every inner loop, as Helion's configs write it: a loop that
# cannot run it (it stores, and fori_loop streams only reads) keeps its default strategy and
# the compile warns; the result is the same.
from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(config=helion.Config(block_sizes=[8, 128], pallas_loop_type="fori_loop"))
def scaled_sum(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile_m in hl.tile(x.size(0)):
        for tile_n in hl.tile(x.size(1)):
            out[tile_m, tile_n] = x[tile_m, tile_n] * 1.5 + y[tile_m, tile_n]
    return out
