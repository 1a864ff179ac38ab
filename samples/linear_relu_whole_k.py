"""A linear layer with ReLU (``relu(x @ w.T + bias)``, weights in nn.Linear's [out, in] layout):
``hl.dot`` into a float32 accumulator with the transposed weight folded into the product."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def linear_relu(x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """``relu(x @ w.T + bias)`` for x [m, k], w [n, k], bias [n]; the result has x's dtype."""
    m, k = x.size()
    n, k2 = w.size()
    assert k == k2, f"size mismatch {k} != {k2}"
    out = torch.empty([m, n], dtype=x.dtype, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        acc = hl.dot(x[tile_m, :], w[tile_n, :].T, acc=acc)
        out[tile_m, tile_n] = torch.relu(acc + bias[tile_n]).to(out.dtype)
    return out


def check(m: int = 1024, k: int = 512, n: int = 1024) -> None:
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    bias = torch.randn(n, device="cuda", dtype=torch.bfloat16)
    expected = torch.relu(torch.nn.functional.linear(x.float(), w.float(), bias.float()))
    torch.testing.assert_close(linear_relu(x, w, bias), expected.to(x.dtype))
