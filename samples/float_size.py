"""``float(n)`` of a size, as Helion's examples write a mean: the row mean of ``x`` [m, n],
each row divided by ``float(n)`` in device code, and a host-side ``float(m)`` scale."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def row_mean_scaled(x: torch.Tensor) -> torch.Tensor:
    """``x.mean(-1) / m`` for ``x`` [m, n], float32."""
    m, n = x.size()
    rows = float(m)
    out = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        out[tile_m] = torch.sum(x[tile_m, :].to(torch.float32), dim=-1) / float(n) / rows
    return out


if __name__ == "__main__":
    x = torch.randn([64, 256], device="cuda")
    torch.testing.assert_close(row_mean_scaled(x), x.mean(-1) / 64)
