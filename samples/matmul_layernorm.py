"""Matrix multiplication fused with a layer norm over its rows (Helion's
examples/matmul_layernorm.py): each row tile keeps the whole of n, an inner loop over K
accumulates ``x @ y`` in float32, and the layer norm (biased variance) runs on the
accumulator before the store.

Helion's example writes ``n = hl.register_reduction_dim(y.size(1))``, ``hl.zeros([tile_m, n])``
and ``torch.var_mean``, which helionc does not support yet (tests/e2e/pending/matmul_layernorm.py);
here the accumulator's shape names ``y.size(1)`` and the statistics are two means.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


# static_shapes=True gives a performance boost for matmuls
@helion.kernel(static_shapes=True)
def matmul_layernorm(x: torch.Tensor, y: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """layer_norm(x @ y) * weight + bias over the last axis, for x [m, k], y [k, n]."""
    m, k = x.size()
    k2, n = y.size()
    assert k == k2, f"size mismatch {k} != {k2}"
    assert weight.size(0) == n, f"weight size mismatch {weight.size(0)} != {n}"
    assert bias.size(0) == n, f"bias size mismatch {bias.size(0)} != {n}"
    out = torch.empty([m, n], dtype=torch.promote_types(x.dtype, y.dtype), device=x.device)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m, y.size(1)], dtype=torch.float32)
        for tile_k in hl.tile(k):
            mm = torch.matmul(x[tile_m, tile_k], y[tile_k, :])
            acc = acc + mm
        eps = 1e-5
        mean = torch.mean(acc, dim=-1, keepdim=True)
        var = torch.mean((acc - mean) * (acc - mean), dim=-1, keepdim=True)
        normalized = (acc - mean) * torch.rsqrt(var + eps)
        acc = normalized * (weight[:].to(torch.float32)) + (bias[:].to(torch.float32))
        out[tile_m, :] = acc
    return out


def check(m: int, k: int, n: int) -> None:
    x = torch.randn([m, k], device="cuda", dtype=torch.float16)
    y = torch.randn([k, n], device="cuda", dtype=torch.float16)
    weight = torch.randn([n], device="cuda", dtype=torch.float16)
    bias = torch.randn([n], device="cuda", dtype=torch.float16)
    expected = torch.nn.functional.layer_norm(
        (x @ y).float(), (n,), weight=weight.float(), bias=bias.float()
    ).to(x.dtype)
    torch.testing.assert_close(matmul_layernorm(x, y, weight, bias), expected, rtol=1e-2, atol=1e-1)


if __name__ == "__main__":
    check(128, 256, 400)
