"""Python loops in device code: `range(begin, end, step)` and `range(n)` over ints known while
the kernel is traced, and loops over a list of constants and a tuple of tensors, each unrolled
(the loop variable is a Python int, a float or a tensor in each copy of the body). Stores in
the bodies accumulate into the output block."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def python_loops(x: torch.Tensor, a: torch.Tensor, b: torch.Tensor, taps: int = 3) -> torch.Tensor:
    m, n = x.size()
    out = torch.zeros_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        v = x[tile_m, tile_n].to(torch.float32)
        for k in range(1, 6, 2):
            out[tile_m, tile_n] += (v * k).to(out.dtype)
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for t in range(taps):
            acc = acc + v / (t + 1)
        for scale in [0.5, -2.0]:
            acc = acc * scale
        for w in (a, b):
            acc = acc + w[tile_m, tile_n].to(torch.float32)
        out[tile_m, tile_n] += acc.to(out.dtype)
    return out
