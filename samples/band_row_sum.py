"""Row sums over a band below the diagonal: out[i] = sum of x[i, k] for i - width <= k <= i.

The inner loop runs only over the columns a block of rows can reach: its bounds are Python's
``max``/``min`` of the outer tile's bounds, so each outer step visits a different range.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def band_row_sum(x: torch.Tensor, width: int = 64) -> torch.Tensor:
    """``x`` is [rows, cols]; the result is [rows] in float32."""
    rows, cols = x.size()
    out = torch.empty([rows], dtype=torch.float32, device=x.device)
    for tile_r in hl.tile(rows):
        acc = hl.zeros([tile_r], dtype=torch.float32)
        for tile_c in hl.tile(max(tile_r.begin - width, 0), min(cols, tile_r.end)):
            offset = tile_r.index[:, None] - tile_c.index[None, :]
            inside = (offset >= 0) & (offset <= width)
            acc += torch.where(inside, x[tile_r, tile_c].to(torch.float32), 0.0).sum(-1)
        out[tile_r] = acc
    return out


def main() -> None:
    x = torch.randn(512, 512, device="cuda")
    band = torch.triu(torch.tril(x), diagonal=-64)
    torch.testing.assert_close(band_row_sum(x), band.sum(-1))


if __name__ == "__main__":
    main()
