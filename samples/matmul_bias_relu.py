"""Matrix multiplication with an inner loop over K and a bias + ReLU epilogue (the epilogue of
Helion's examples/matmul.py ``check``, ``torch.relu(acc + bias[tile[1]])``, written into the
kernel): the accumulator is float32 and the result is rounded once, on the store."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def matmul_bias_relu(x: torch.Tensor, y: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """``relu(x @ y + bias)`` for x [m, k], y [k, n] and bias [n]."""
    m, k = x.size()
    k2, n = y.size()
    assert k == k2, f"size mismatch {k} != {k2}"
    out = torch.empty([m, n], dtype=torch.promote_types(x.dtype, y.dtype), device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for tile_k in hl.tile(k):
            acc = torch.addmm(acc, x[tile_m, tile_k], y[tile_k, tile_n])
        out[tile_m, tile_n] = torch.relu(acc + bias[tile_n])
    return out


def check(m: int, k: int, n: int) -> None:
    x = torch.randn([m, k], device="cuda", dtype=torch.float16)
    y = torch.randn([k, n], device="cuda", dtype=torch.float16)
    bias = torch.randn([n], device="cuda", dtype=torch.float16)
    torch.testing.assert_close(matmul_bias_relu(x, y, bias), torch.relu(x @ y + bias))


if __name__ == "__main__":
    check(1024, 1024, 1024)
