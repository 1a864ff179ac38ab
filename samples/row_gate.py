"""Gate each row by the sign of its first element, with a mask expanded to the block.

``mask.view(block_m, 1).expand(block_m, block_n)`` widens a per-row mask to the tile; the
sizes of ``view``/``expand`` are block sizes (``tile.block_size``), tiles or -1.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def row_gate(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """``where(x[:, :1] > 0, x, 0) + bias`` with the bias row expanded over the rows."""
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        mask = x[tile_m, 0] > 0
        wide = mask.view(tile_m.block_size, 1).expand(tile_m.block_size, tile_n.block_size)
        row = bias[tile_n].view(1, tile_n).expand(tile_m, -1)
        out[tile_m, tile_n] = torch.where(wide, x[tile_m, tile_n], 0.0) + row
    return out


def main() -> None:
    x = torch.randn(64, 256, device="cuda")
    bias = torch.randn(256, device="cuda")
    torch.testing.assert_close(row_gate(x, bias), torch.where(x[:, :1] > 0, x, 0.0) + bias)


if __name__ == "__main__":
    main()
