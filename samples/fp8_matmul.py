"""A matrix product of 8-bit float operands (Helion's hl.dot takes ``torch.float8_e4m3fn`` and
``torch.float8_e5m2``), accumulated in float32 across the K tiles and scaled into bfloat16: the
shape of an FP8 GEMM with per-tensor scales. Mosaic feeds the 8-bit operands to the MXU."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def fp8_matmul(x: torch.Tensor, y: torch.Tensor, scale: float = 0.5) -> torch.Tensor:
    """``(x @ y) * scale`` in bfloat16, for 8-bit float x [m, k] and y [k, n]."""
    m, k = x.size()
    _, n = y.size()
    out = torch.empty([m, n], dtype=torch.bfloat16, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for tile_k in hl.tile(k):
            acc = hl.dot(x[tile_m, tile_k], y[tile_k, tile_n], acc=acc)
        out[tile_m, tile_n] = (acc * scale).to(torch.bfloat16)
    return out


def check(m: int, k: int, n: int) -> None:
    x = torch.randn([m, k], device="cuda").to(torch.float8_e4m3fn)
    y = torch.randn([k, n], device="cuda").to(torch.float8_e5m2)
    expected = ((x.float() @ y.float()) * 0.5).to(torch.bfloat16)
    torch.testing.assert_close(fp8_matmul(x, y), expected)


if __name__ == "__main__":
    check(512, 512, 512)
