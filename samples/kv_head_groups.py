"""Grouped heads (GQA): query head h reads key/value head `h // groups`. The index is a name
computed in the kernel from the outer tile (`h_kv = tile_h.begin // groups`): a function of the
grid indices, so the BlockSpec's index map computes it and `kv`'s block is the head's rows
(README, "Scalar indices computed in the kernel")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def kv_head_groups(q: torch.Tensor, kv: torch.Tensor) -> torch.Tensor:
    """``q * kv.repeat_interleave(groups, 0)`` for ``q`` [heads, n, d] and ``kv`` [kv_heads, n,
    d], ``groups = heads // kv_heads``."""
    heads, n, d = q.size()
    kv_heads = kv.size(0)
    groups = heads // kv_heads
    out = torch.empty_like(q)
    for tile_h in hl.tile(heads, block_size=1):
        h_kv = tile_h.begin // groups
        for tile_n in hl.tile(n):
            out[tile_h.begin, tile_n, :] = q[tile_h.begin, tile_n, :] * kv[h_kv, tile_n, :]
    return out


def check(heads: int, kv_heads: int, n: int, d: int) -> None:
    q = torch.randn([heads, n, d], device="cuda")
    kv = torch.randn([kv_heads, n, d], device="cuda")
    expected = q * kv.repeat_interleave(heads // kv_heads, 0)
    torch.testing.assert_close(kv_head_groups(q, kv), expected)


if __name__ == "__main__":
    check(4, 2, 64, 128)
