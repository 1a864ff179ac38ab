"""``torch.rand_like``, ``torch.rand`` and ``torch.randn_like`` in device code, as Helion's tests use them (no seed
argument): helionc seeds the k-th such call of a kernel with k, so the draws are the same at
every launch and for every block size (README "Random numbers")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def implicit_noise(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(x plus uniform noise in [0, 1) shaped like x, a mask from a second draw over the rows
    of x, whole, and x plus standard normal noise in float32)."""
    m, n = x.size()
    noisy = torch.empty_like(x)
    mask = torch.empty([m, n], dtype=torch.float32, device=x.device)
    normal = torch.empty([m, n], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        row = x[tile_m, :]
        noisy[tile_m, :] = row + torch.rand_like(row)
        draw = torch.rand([tile_m, n], device=x.device)
        mask[tile_m, :] = torch.where(draw > 0.5, 1.0, 0.0)
        wide = row.to(torch.float32)
        normal[tile_m, :] = wide + torch.randn_like(wide)
    return noisy, mask, normal


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    noisy, mask, normal = implicit_noise(x)
    assert float((noisy - x).min()) >= 0.0 and float((noisy - x).max()) <= 1.0
    assert 0.4 < float(mask.mean()) < 0.6
    assert abs(float((normal - x).std()) - 1.0) < 0.1


if __name__ == "__main__":
    check(1000, 300)
