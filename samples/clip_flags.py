"""Clamp a matrix into [lo, hi] and flag what was clipped: a kernel with two outputs."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def clip_flags(
    x: torch.Tensor,
    lo: float = -0.5,
    hi: float = 0.5,
    label: int = 1,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Return ``(clamp(x, lo, hi), flags)`` where flags is +label below lo, -label above hi, else 0."""
    m, n = x.size()
    clipped = torch.empty_like(x)
    flags = torch.zeros([m, n], dtype=torch.int32, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        v = x[tile_m, tile_n]
        clipped[tile_m, tile_n] = torch.minimum(
            torch.maximum(v, torch.full_like(v, lo)), torch.full_like(v, hi)
        )
        below = torch.where(v < lo, torch.full_like(v, label), torch.zeros_like(v))
        flags[tile_m, tile_n] = torch.where(v > hi, -label, below).to(torch.int32)
    return clipped, flags


def check() -> None:
    x = torch.randn(1024, 1024, device="cuda")
    clipped, flags = clip_flags(x, -1.0, 1.0, 3)
    torch.testing.assert_close(clipped, x.clamp(-1.0, 1.0))
    assert int((flags != 0).sum()) == int(((x < -1.0) | (x > 1.0)).sum())


if __name__ == "__main__":
    check()
