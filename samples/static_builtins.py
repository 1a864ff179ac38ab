"""Python's builtins on static values (sizes, scalar arguments), a size specialised by a bare
``hl.specialize(...)`` statement, and Helion's ``@helion.aot_kernel`` decorator (a kernel
whose configs Helion tunes ahead of time by shape; its tuning keywords mean nothing here). The
kernel copies the first ``min(n, limit)`` columns of ``x``, scaled."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.aot_kernel(batched=[[0, None], None])
def first_columns(x: torch.Tensor, limit: int = 256, scale: float = -2.7) -> torch.Tensor:
    """``x[:, :min(n, limit)] * abs(int(scale))`` for ``x`` [m, n]."""
    m, n = x.size()
    hl.specialize(x.size(1))
    cols = min(n, limit, 4096)
    rows = max(len(x), 1)
    factor = abs(int(scale))
    out = torch.empty([rows, cols], dtype=x.dtype, device=x.device)
    for tile_m, tile_n in hl.tile([rows, cols]):
        out[tile_m, tile_n] = x[tile_m, tile_n] * factor
    return out


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    torch.testing.assert_close(first_columns(x), x[:, : min(n, 256)] * 2)


if __name__ == "__main__":
    check(1024, 1024)
