"""Inverse trigonometric functions in their spellings (``torch.atan``, ``torch.arcsin``,
``x.acos()``). Mosaic has none of them and lowers ``arctan2``, through which the module writes
them, on float32 vectors only: a bfloat16 block runs them as float32 and rounds once."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def inverse_trig(x: torch.Tensor) -> torch.Tensor:
    """atan(x) + asin(x / 2) - acos(x / 2) / 4, for x in [-2, 2]."""
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        v = x[tile_m, tile_n]
        half = v * 0.5
        out[tile_m, tile_n] = torch.atan(v) + torch.arcsin(half) - half.acos() * 0.25
    return out


def check(m: int, n: int) -> None:
    x = torch.rand([m, n], device="cuda") * 4 - 2
    want = torch.atan(x) + torch.asin(x / 2) - torch.acos(x / 2) / 4
    torch.testing.assert_close(inverse_trig(x), want)


if __name__ == "__main__":
    check(64, 256)
