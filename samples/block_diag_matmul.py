"""A block-diagonal product: each 128-column block of x times the matching 128 x 128 block on
the diagonal of w (``x @ torch.block_diag(w[0:128, 0:128], w[128:256, 128:256], ...)``)."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def block_diag_matmul(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """x [m, n] times the 128 x 128 diagonal blocks of w [n, n]; the last block may be partial."""
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n], block_size=[None, 128]):
        out[tile_m, tile_n] = torch.matmul(x[tile_m, tile_n], w[tile_n, tile_n])
    return out
