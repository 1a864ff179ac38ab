"""A carried value whose shape the body states differently: `acc = hl.zeros([tile_m, 1])`
accumulates `hl.dot(w[tile_m, tile_k], v[tile_k, :])`, whose last axis is v's whole axis 1.
`v` is a column ([k, 1]), so the shapes agree when the kernel is called (Helion specializes
shapes); the module checks `v.size(1) == 1` while JAX traces."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def column_gemv(w: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """``w @ v`` for ``w`` [m, k] and the column ``v`` [k, 1]; float32 [m, 1]."""
    m, k = w.size()
    out = torch.empty([m, 1], dtype=torch.float32, device=w.device)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m, 1], dtype=torch.float32)
        for tile_k in hl.tile(k):
            acc += hl.dot(w[tile_m, tile_k], v[tile_k, :], out_dtype=torch.float32)
        out[tile_m, :] = acc
    return out


def check(m: int, k: int) -> None:
    w = torch.randn([m, k], device="cuda")
    v = torch.randn([k, 1], device="cuda")
    torch.testing.assert_close(column_gemv(w, v), w @ v)


if __name__ == "__main__":
    check(128, 256)
