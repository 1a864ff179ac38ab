"""Each row folded in two (its halves added) plus the column positions of a half.

Exercises a size computed from another (`half = n // 2`) as an allocation size
(`hl.zeros([tile_m, half])`), a `.reshape()` size beside a tile value's own `.size(0)`, and an
`hl.arange` length; the output's axis `out.size(1)` meets the computed size at the store, which
the module checks at trace time.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def half_fold(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    half = n // 2
    out = torch.empty([m, half], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m, half], dtype=torch.float32)
        rows = x[tile_m, :].to(torch.float32)
        acc += rows.reshape(rows.size(0), 2, half).sum(1)
        acc += hl.arange(half).to(torch.float32)[None, :]
        out[tile_m, :] = acc
    return out


def check() -> None:
    x = torch.randn(1000, 256, device="cuda")
    expected = x[:, :128] + x[:, 128:] + torch.arange(128, device="cuda")[None, :]
    torch.testing.assert_close(half_fold(x), expected)


if __name__ == "__main__":
    check()
