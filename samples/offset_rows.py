"""Row differences at a distance: ``out[i, :] = x[i + shift, :] - x[i, :]``.

``tile_m + shift`` is a tile in arithmetic with an int, which stands for the tile's indices
(``tile_m.index + shift``), as in Helion: ``x[tile_m + shift, tile_n]`` reads the rows `shift`
further on.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def offset_rows(x: torch.Tensor, shift: int = 3) -> torch.Tensor:
    out = x.new_empty(x.size(0) - shift, x.size(1))
    for tile_m, tile_n in hl.tile([out.size(0), out.size(1)]):
        out[tile_m, tile_n] = x[tile_m + shift, tile_n] - x[tile_m, tile_n]
    return out
