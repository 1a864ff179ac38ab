"""A matrix product whose bias is read with both tiles, ``bias[tile_m, tile_n]``, where ``bias``
may be [1, n] (the shape of Helion's Pallas tests' ``matmul_broadcast_bias``): Helion reads an
axis of size 1 indexed by a tile as that one row broadcast along the tile, so the same kernel
adds a per-column bias [1, n] or a full [m, n] one."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def matmul_bias(x: torch.Tensor, y: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """``x @ y + bias`` for x [m, k], y [k, n] and bias [m, n], [1, n], [m, 1] or [1, 1]."""
    m, k = x.size()
    _, n = y.size()
    out = torch.empty([m, n], dtype=torch.promote_types(x.dtype, y.dtype), device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for tile_k in hl.tile(k):
            acc = torch.addmm(acc, x[tile_m, tile_k], y[tile_k, tile_n])
        out[tile_m, tile_n] = acc + bias[tile_m, tile_n]
    return out


def check(m: int, k: int, n: int) -> None:
    x = torch.randn([m, k], device="cuda")
    y = torch.randn([k, n], device="cuda")
    bias = torch.randn([1, n], device="cuda")
    torch.testing.assert_close(matmul_bias(x, y, bias), x @ y + bias)


if __name__ == "__main__":
    check(256, 512, 384)
