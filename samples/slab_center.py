"""Centre and scale each [rows, cols] slab of a [batch, rows, cols] tensor by its own statistics.

One program per slab (``hl.grid``). Reductions without ``dim`` reduce the whole slab to one
value, as in PyTorch (``slab.mean()``, ``slab.max()``), and a list of dimensions reduces them
all (``.amax(dim=[0, 1], keepdim=True)``, ``.sum((1, 0))``); ``hl.full`` takes its dtype by
position.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def slab_center(x: torch.Tensor, spread: float = 0.5) -> torch.Tensor:
    """``(s - s.mean()) / (max|s - mean| + spread) + share_of_positive + s.max()`` per slab ``s``."""
    batch, rows, cols = x.size()
    out = torch.empty([batch, rows, cols], dtype=torch.float32, device=x.device)
    for b in hl.grid(batch):
        slab = x[b, :, :].to(torch.float32)
        centered = slab - slab.mean()
        peak = centered.abs().amax(dim=[0, 1], keepdim=True)
        positive = (slab > 0).to(torch.float32).sum((1, 0))
        share = hl.full([rows, cols], 1.0, torch.float32) * positive / (rows * cols)
        out[b, :, :] = centered / (peak + spread) + share + slab.max()
    return out


def main() -> None:
    x = torch.randn(4, 64, 256, device="cuda")
    mean = x.mean(dim=(1, 2), keepdim=True)
    peak = (x - mean).abs().amax(dim=(1, 2), keepdim=True)
    share = (x > 0).float().mean(dim=(1, 2), keepdim=True)
    top = x.amax(dim=(1, 2), keepdim=True)
    torch.testing.assert_close(slab_center(x, 0.5), (x - mean) / (peak + 0.5) + share + top)


if __name__ == "__main__":
    main()
