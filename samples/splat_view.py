"""Rows of any leading shape scaled by their sum, viewed back with `*x.size()`.

Exercises `*` in a call's sizes (`out.view(*x.size()[:-1], n)`): the host view of the flat
result takes the sizes of `x`, whose rank the module learns only while JAX traces.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def splat_view(x: torch.Tensor) -> torch.Tensor:
    n = x.size(-1)
    flat = x.reshape(-1, n)
    out = torch.empty_like(flat)
    for tile_r in hl.tile(flat.size(0)):
        rows = flat[tile_r, :].to(torch.float32)
        out[tile_r, :] = (rows * rows.sum(-1, keepdim=True)).to(out.dtype)
    return out.view(*x.size()[:-1], n)


def check() -> None:
    x = torch.randn(4, 250, 128, device="cuda")
    torch.testing.assert_close(splat_view(x), x * x.sum(-1, keepdim=True))


if __name__ == "__main__":
    check()
