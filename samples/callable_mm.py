"""Callables passed at run time, called in the kernel (Helion's test_dot ``mm_func``): each K
step's accumulator comes from ``mm_func(acc, x_tile, y_tile)``, and ``tail(acc, (tile_m,
tile_n))`` sees the tiles' attributes. helionc cannot see the callables: the generated
function takes them and calls them on JAX values while JAX traces the kernel, and each call
has the type of its first tile-value argument (checked then)."""

from __future__ import annotations

from typing import Callable

import torch
from torch import Tensor

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def callable_mm(
    x: Tensor,
    y: Tensor,
    mm_func: Callable[[Tensor, Tensor, Tensor], Tensor],
    tail: Callable[[Tensor, tuple[Tensor, ...]], Tensor],
) -> Tensor:
    """``2 * tail(mm_func-accumulated x @ y, tiles)`` in float32."""
    m, k = x.size()
    _, n = y.size()
    out = torch.empty([m, n], dtype=torch.float32, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for tile_k in hl.tile(k):
            acc = mm_func(acc, x[tile_m, tile_k], y[tile_k, tile_n])
        acc = tail(acc, (tile_m, tile_n))
        out[tile_m, tile_n] = acc * 2.0
    return out


def check(m: int, k: int, n: int) -> None:
    x = torch.randn([m, k], device="cuda", dtype=torch.bfloat16)
    y = torch.randn([k, n], device="cuda", dtype=torch.bfloat16)
    mm = lambda acc, a, b: torch.addmm(acc, a, b)
    tail = lambda acc, tiles: acc + tiles[1].index[None, :]
    expected = 2.0 * (x.float() @ y.float() + torch.arange(n, device="cuda")[None, :])
    torch.testing.assert_close(callable_mm(x, y, mm, tail), expected, rtol=1e-2, atol=1e-2)


if __name__ == "__main__":
    check(512, 384, 256)
