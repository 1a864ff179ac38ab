"""Batched attention scores ``scale * q @ k^T`` with the head dimension kept whole in VMEM; the
transpose of k is folded into the product (no transposed copy is made)."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def attention_scores(q: torch.Tensor, k: torch.Tensor, scale: float = 0.125) -> torch.Tensor:
    """``scale * q @ k^T`` in float32 for q [b, m, d] and k [b, n, d]."""
    b, m, d = q.size()
    b2, n, d2 = k.size()
    assert b == b2 and d == d2, "q and k must agree in batch and head dimension"
    out = torch.empty([b, m, n], dtype=torch.float32, device=q.device)
    for tile_b, tile_m, tile_n in hl.tile([b, m, n]):
        scores = torch.bmm(q[tile_b, tile_m, :].float(), k[tile_b, tile_n, :].float().transpose(1, 2))
        out[tile_b, tile_m, tile_n] = scores * scale
    return out


def check(b: int = 8, m: int = 512, n: int = 512, d: int = 128) -> None:
    q = torch.randn(b, m, d, device="cuda", dtype=torch.bfloat16)
    k = torch.randn(b, n, d, device="cuda", dtype=torch.bfloat16)
    expected = 0.125 * torch.bmm(q.float(), k.float().transpose(1, 2))
    torch.testing.assert_close(attention_scores(q, k), expected)
