"""A matrix product of int8 operands accumulated in int32 (Helion's hl.dot takes int8 operands
into an int32 accumulator: the shape of an int8 GEMM), with the contraction read whole
(``x[tile_m, :]``), so that one product sums over all of k. TPU v4 has no 8-bit products: there
the operands multiply as bfloat16, exactly (templates/helper_dot.py.tmpl)."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def int8_matmul_whole_k(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """``x @ y`` in int32, for int8 x [m, k] and y [k, n]."""
    m, k = x.size()
    _, n = y.size()
    out = torch.empty([m, n], dtype=torch.int32, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.int32)
        out[tile_m, tile_n] = hl.dot(x[tile_m, :], y[:, tile_n], acc=acc)
    return out


def check(m: int, k: int, n: int) -> None:
    x = torch.randint(-128, 128, [m, k], device="cuda", dtype=torch.int8)
    y = torch.randint(-128, 128, [k, n], device="cuda", dtype=torch.int8)
    expected = (x.long() @ y.long()).int()
    torch.testing.assert_close(int8_matmul_whole_k(x, y), expected)


if __name__ == "__main__":
    check(256, 2048, 256)
