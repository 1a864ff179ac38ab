"""Each row divided by its first element, times a scale read from a one-element tensor.

Exercises a scalar index on the last axis (`x[tile_m, 0]`: a lane-aligned column window) and a
tensor read only as a scalar (`scale[0]`: passed in SMEM).
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def first_column_scale(x: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        first = x[tile_m, 0].to(torch.float32)
        values = x[tile_m, tile_n].to(torch.float32)
        out[tile_m, tile_n] = (values / first[:, None] * scale[0]).to(out.dtype)
    return out


def check() -> None:
    x = torch.rand(1000, 300, device="cuda") + 0.5
    scale = torch.tensor([2.0], device="cuda")
    torch.testing.assert_close(first_column_scale(x, scale), x / x[:, :1] * 2.0)


if __name__ == "__main__":
    check()
