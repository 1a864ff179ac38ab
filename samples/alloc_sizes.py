"""Allocation sizes given as separate arguments, as PyTorch takes them: ``x.new_empty(m)``
and ``torch.empty(m, n, dtype=...)`` (a single int is a rank-1 shape)."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def row_max_and_double(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Each row's maximum of ``x`` [m, n], and ``x * 2`` in float32."""
    m, n = x.size()
    maxes = x.new_empty(m)
    doubled = torch.empty(m, n, dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        row = x[tile_m, :]
        maxes[tile_m] = torch.amax(row, dim=-1)
        doubled[tile_m, :] = row.to(torch.float32) * 2
    return maxes, doubled


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    maxes, doubled = row_max_and_double(x)
    torch.testing.assert_close(maxes, x.amax(-1))
    torch.testing.assert_close(doubled, x * 2)


if __name__ == "__main__":
    check(1024, 1024)
