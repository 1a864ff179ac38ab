"""Matrix multiplication with the contracted dimension kept whole in VMEM, and Helion's
``epilogue`` parameter (a lambda default that the compiler inlines)."""

from __future__ import annotations

from typing import Callable

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def matmul(
    x: torch.Tensor,
    y: torch.Tensor,
    epilogue: Callable[[torch.Tensor, tuple[torch.Tensor, ...]], torch.Tensor] = lambda acc, tile: acc,
) -> torch.Tensor:
    """``epilogue(x @ y, tiles)`` for x of shape [m, k] and y of shape [k, n] (one dtype)."""
    m, k = x.size()
    k2, n = y.size()
    assert k == k2, f"size mismatch {k} != {k2}"
    out = torch.empty([m, n], dtype=torch.promote_types(x.dtype, y.dtype), device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        out[tile_m, tile_n] = epilogue(torch.matmul(x[tile_m, :], y[:, tile_n]), (tile_m, tile_n))
    return out


def check(m: int = 1024, k: int = 512, n: int = 1024) -> None:
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    y = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
    torch.testing.assert_close(matmul(x, y), x @ y)
