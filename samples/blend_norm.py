"""Blend two row sets and normalise each row by its own statistics.

``torch.lerp`` blends, ``torch.var_mean`` gives a row's variance and mean in one call,
``torch.add(..., alpha=)`` subtracts the scaled mean, and ``.std``/``torch.var`` with PyTorch's
default Bessel correction (and ``unbiased=False``) measure the spread of each row. Every
statistic is over a whole axis (``x[tile_m, :]``), so the correction's element count is the
axis's length.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def blend_norm(
    x: torch.Tensor, y: torch.Tensor, w: float = 0.25, eps: float = 1e-5
) -> tuple[torch.Tensor, torch.Tensor]:
    """``(mix - mean) / sqrt(var + eps)`` of ``mix = lerp(x, y, w)``, and ``std(mix) + var0(mix)``."""
    m, n = x.size()
    out = torch.empty([m, n], dtype=x.dtype, device=x.device)
    spread = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        mixed = torch.lerp(x[tile_m, :].to(torch.float32), y[tile_m, :].to(torch.float32), w)
        var, mean = torch.var_mean(mixed, dim=-1, keepdim=True, correction=0)
        shifted = torch.add(mixed, mean, alpha=-1.0)
        out[tile_m, :] = (shifted * torch.rsqrt(var + eps)).to(out.dtype)
        spread[tile_m] = mixed.std(dim=1) + torch.var(mixed, 1, unbiased=False)
    return out, spread


def main() -> None:
    x = torch.randn(64, 256, device="cuda")
    y = torch.randn(64, 256, device="cuda")
    mix = torch.lerp(x, y, 0.25)
    var, mean = torch.var_mean(mix, dim=-1, keepdim=True, correction=0)
    out, spread = blend_norm(x, y)
    torch.testing.assert_close(out, (mix - mean) * torch.rsqrt(var + 1e-5))
    torch.testing.assert_close(spread, mix.std(dim=1) + mix.var(dim=1, unbiased=False))


if __name__ == "__main__":
    main()
