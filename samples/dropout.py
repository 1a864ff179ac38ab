"""Dropout with Helion's counter-based generator: ``hl.rand`` draws one uniform number per
element from ``seed`` and the element's position, so the mask is the same for every block size
and strategy (and the same as Helion computes). Elements whose draw is below ``p`` are dropped,
the others scaled by ``1 / (1 - p)``; the mask is returned too."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def dropout(x: torch.Tensor, p: float = 0.5, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """``x * keep / (1 - p)`` and ``keep``, where ``keep = hl.rand(...) >= p``."""
    m, n = x.size()
    out = torch.empty_like(x)
    keep = torch.empty([m, n], dtype=torch.float32, device=x.device)
    scale = 1.0 / (1.0 - p)
    for tile_m, tile_n in hl.tile([m, n]):
        draw = hl.rand([tile_m, tile_n], seed=seed)
        kept = torch.where(draw >= p, 1.0, 0.0)
        keep[tile_m, tile_n] = kept
        out[tile_m, tile_n] = (x[tile_m, tile_n] * kept * scale).to(x.dtype)
    return out, keep


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    out, keep = dropout(x, 0.25, 7)
    torch.testing.assert_close(out, x * keep / 0.75)
    assert abs(keep.mean().item() - 0.75) < 0.01


if __name__ == "__main__":
    check(1024, 1024)
