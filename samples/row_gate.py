"""Gate each row by the sign of its first element, with a mask expanded to the block.

``mask.view(block_m, 1).expand(block_m, block_n)`` widens a per-row mask to the tile; the
sizes of ``view``/``expand`` are block sizes (``tile.block_size``), tiles or -1. A whole axis
of length 1 (``scale[tile_m, :]`` of a ``[rows, 1]`` scale) broadcasts against a tile, as in
PyTorch; the module checks that length when JAX traces it.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def row_gate(x: torch.Tensor, bias: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    """``where(x[:, :1] > 0, x, 0) * scale + bias``; bias expanded over the rows, scale [rows, 1]."""
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        mask = x[tile_m, 0] > 0
        wide = mask.view(tile_m.block_size, 1).expand(tile_m.block_size, tile_n.block_size)
        row = bias[tile_n].view(1, tile_n).expand(tile_m, -1)
        gated = torch.where(wide, x[tile_m, tile_n], 0.0) * scale[tile_m, :]
        out[tile_m, tile_n] = gated + row
    return out


def main() -> None:
    x = torch.randn(64, 256, device="cuda")
    bias = torch.randn(256, device="cuda")
    scale = torch.randn(64, 1, device="cuda")
    expected = torch.where(x[:, :1] > 0, x, 0.0) * scale + bias
    torch.testing.assert_close(row_gate(x, bias, scale), expected)


if __name__ == "__main__":
    main()
