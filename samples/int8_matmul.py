"""A quantized matrix product: int8 operands multiplied on the MXU into an int32 ``acc``
(``hl.dot`` of int8 by int8), then scaled per row of x and per column of y into float32.

The 8-bit blocks follow Mosaic's (32, 128) tiling of 8-bit arrays: a block over their
second-to-last axis is a multiple of 32 rows (or the whole axis)."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def int8_matmul(
    x: torch.Tensor, y: torch.Tensor, x_scale: torch.Tensor, y_scale: torch.Tensor
) -> torch.Tensor:
    """``(x @ y) * x_scale[:, None] * y_scale[None, :]`` in float32 for int8 x [m, k] and
    y [k, n] and float32 scales x_scale [m] and y_scale [n]."""
    m, k = x.size()
    _, n = y.size()
    out = torch.empty([m, n], dtype=torch.float32, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.int32)
        for tile_k in hl.tile(k):
            acc = hl.dot(x[tile_m, tile_k], y[tile_k, tile_n], acc=acc)
        scales = x_scale[tile_m][:, None] * y_scale[tile_n][None, :]
        out[tile_m, tile_n] = acc.to(torch.float32) * scales
    return out


def check(m: int, k: int, n: int) -> None:
    x = torch.randint(-128, 128, [m, k], device="cuda", dtype=torch.int8)
    y = torch.randint(-128, 128, [k, n], device="cuda", dtype=torch.int8)
    x_scale = torch.rand([m], device="cuda")
    y_scale = torch.rand([n], device="cuda")
    expected = (x.float() @ y.float()) * x_scale[:, None] * y_scale[None, :]
    torch.testing.assert_close(int8_matmul(x, y, x_scale, y_scale), expected)


if __name__ == "__main__":
    check(512, 512, 512)
