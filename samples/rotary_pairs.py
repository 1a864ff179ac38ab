"""Rotary embedding of each row's two halves (RoPE's rotate-half form).

Exercises sizes computed from other sizes (`half = d // 2`) as `.reshape()` sizes, Helion's
`hl.split` and `hl.join` of a last axis of 2, and the trace-time checks a computed size gets
where it meets other sizes: `x.size(1)` must be `2 * half` (an odd width cannot be split), and
`cos.size(1)` must be `half` where the angles meet the halves.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def rotary_pairs(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    m, d = x.size()
    half = d // 2
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        pairs = x[tile_m, :].to(torch.float32).reshape([tile_m, 2, half]).permute(0, 2, 1)
        first, second = hl.split(pairs)
        c = cos[tile_m, :].to(torch.float32)
        s = sin[tile_m, :].to(torch.float32)
        rotated = hl.join(first * c - second * s, second * c + first * s)
        out[tile_m, :] = rotated.permute(0, 2, 1).reshape([tile_m, d]).to(out.dtype)
    return out


def check() -> None:
    x = torch.randn(1000, 128, device="cuda")
    angles = torch.randn(1000, 64, device="cuda")
    cos, sin = angles.cos(), angles.sin()
    x1, x2 = x[:, :64], x[:, 64:]
    expected = torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=1)
    torch.testing.assert_close(rotary_pairs(x, cos, sin), expected)


if __name__ == "__main__":
    check()
