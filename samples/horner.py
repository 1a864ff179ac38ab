"""A polynomial of each element with `hl.static_range`: a short loop unrolled while the kernel
is traced (Horner's scheme, the coefficients 1, 2, ..., degree + 1 from the highest power)."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def horner(x: torch.Tensor, degree: hl.constexpr = 3) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        v = x[tile_m, tile_n].to(torch.float32)
        acc = hl.full([tile_m, tile_n], 1.0, dtype=torch.float32)
        for i in hl.static_range(1, degree + 1):
            acc = acc * v + (i + 1)
        out[tile_m, tile_n] = acc.to(out.dtype)
    return out
