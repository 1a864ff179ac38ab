"""Two matrices side by side in one, the second one halved.

Exercises slices bounded by a tensor's size (`out[tile_m, :k]`, `out[tile_m, k:]` with
`k = a.size(1)`) into a fresh array of a computed width.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def concat_scaled(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    m, k = a.size()
    out = torch.empty([m, k + b.size(1)], dtype=a.dtype, device=a.device)
    for tile_m in hl.tile(m):
        out[tile_m, :k] = a[tile_m, :]
        out[tile_m, k:] = (b[tile_m, :] * 0.5).to(out.dtype)
    return out


def check() -> None:
    a = torch.randn(1000, 200, device="cuda")
    b = torch.randn(1000, 56, device="cuda")
    torch.testing.assert_close(concat_scaled(a, b), torch.cat([a, b * 0.5], dim=1))


if __name__ == "__main__":
    check()
