"""Column sums: reduce a 2-D tensor over dim 0.

Each program owns a block of columns and every row of them (``x[:, tile_n]``), so the reduced
dimension is the sublane one and the tiled dimension the lane one.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def col_sum(x: torch.Tensor) -> torch.Tensor:
    """``x.sum(0)`` for a 2-D ``x``: [m, n] -> [n], accumulated in float32."""
    m, n = x.size()
    out = torch.empty([n], dtype=x.dtype, device=x.device)
    for tile_n in hl.tile(n):
        out[tile_n] = x[:, tile_n].to(torch.float32).sum(0).to(x.dtype)
    return out


def main() -> None:
    x = torch.randn(4096, 1000, device="cuda")
    torch.testing.assert_close(col_sum(x), x.sum(0), rtol=1e-4, atol=1e-4)


if __name__ == "__main__":
    main()
