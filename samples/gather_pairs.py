"""Embedding lookup at a 2-D grid of ids, without flattening them first:
``out[b, s, :] = weight[ids[b, s], :]``.

The gather's indices are a [tile_b, tile_s] tile, so the gathered value is
[tile_b, tile_s, tile_e].
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def gather_pairs(ids: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    batch, seq = ids.size()
    out = torch.empty([batch, seq, weight.size(1)], dtype=weight.dtype, device=weight.device)
    for tile_b, tile_s, tile_e in hl.tile([batch, seq, weight.size(1)]):
        out[tile_b, tile_s, tile_e] = weight[ids[tile_b, tile_s], tile_e] * 2.0
    return out
