"""Attention over [batch, heads, seq, dim] with the batch and head tiles merged into the rows
(test_pallas' ``attn_merge``): each tile of queries is read as a 4-D block and reshaped to
[-1, d], and the output is reshaped back with ``[1, 1, -1, d]``. A reshape that merges tiles
makes every merged tile but the last a tile of one row (block size 1; README, "Decisions worth
knowing"), so the config's first two block sizes are not read.
"""

from __future__ import annotations

import math

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def attention_heads_merged(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """softmax(q @ k^T / sqrt(d)) @ v per batch and head, q [b, h, m, d], k and v [b, h, n, d]."""
    batch, heads, m = q.size(0), q.size(1), q.size(2)
    n = k.size(2)
    d = hl.specialize(q.size(3))
    out = torch.empty_like(q)
    qk_scale = 1.0 / math.sqrt(d) * 1.44269504  # base-2 exponentials
    for tile_b, tile_h, tile_m in hl.tile([batch, heads, m]):
        rows = q[tile_b, tile_h, tile_m, :].reshape([-1, d])
        row_max = hl.full([rows.size(0)], float("-inf"), dtype=torch.float32)
        row_sum = hl.full([rows.size(0)], 1.0, dtype=torch.float32)
        acc = hl.zeros([rows.size(0), d], dtype=torch.float32)
        for tile_n in hl.tile(n):
            keys = k[tile_b, tile_h, tile_n, :].reshape([-1, d])
            scores = hl.dot(rows * qk_scale, keys.transpose(0, 1), out_dtype=torch.float32)
            new_max = torch.maximum(row_max, torch.amax(scores, -1))
            weights = torch.exp2(scores - new_max[:, None])
            rescale = torch.exp2(row_max - new_max)
            row_sum = row_sum * rescale + torch.sum(weights, -1)
            values = v[tile_b, tile_h, tile_n, :].reshape([-1, d])
            acc = torch.addmm(acc * rescale[:, None], weights.to(values.dtype), values)
            row_max = new_max
        out[tile_b, tile_h, tile_m, :] = (acc / row_sum[:, None]).to(out.dtype).reshape([1, 1, -1, d])
    return out
