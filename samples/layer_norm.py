"""Layer norm forward over the last dimension, with an optional bias.

Statistics are computed in float32 whatever the input dtype (as ``torch.nn.functional.
layer_norm`` does for 16-bit inputs); the result is stored in the input's dtype.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def layer_norm(
    x: torch.Tensor,
    weight: torch.Tensor,
    bias: torch.Tensor | None = None,
    eps: float = 1e-5,
) -> torch.Tensor:
    """``F.layer_norm(x, [n], weight, bias, eps)`` for a 2-D ``x`` of [m, n]."""
    m, n = x.size()
    assert weight.size(0) == n, f"weight size mismatch {weight.size(0)} != {n}"
    if bias is not None:
        assert bias.size(0) == n, f"bias size mismatch {bias.size(0)} != {n}"
    out = torch.empty([m, n], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        acc = x[tile_m, :].to(torch.float32)
        mean = torch.mean(acc, dim=-1, keepdim=True)
        centered = acc - mean
        var = torch.mean(centered * centered, dim=-1, keepdim=True)
        normalized = centered * torch.rsqrt(var + eps)
        if bias is not None:
            acc = normalized * weight[None, :].to(torch.float32) + bias[None, :].to(torch.float32)
        else:
            acc = normalized * weight[None, :].to(torch.float32)
        out[tile_m, :] = acc.to(x.dtype)
    return out


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda", dtype=torch.bfloat16)
    weight = torch.randn([n], device="cuda", dtype=torch.bfloat16)
    bias = torch.randn([n], device="cuda", dtype=torch.bfloat16)
    for b in (bias, None):
        expected = torch.nn.functional.layer_norm(x, [n], weight, b, eps=1e-5)
        torch.testing.assert_close(layer_norm(x, weight, b), expected)


def main() -> None:
    check(4096, 4096)


if __name__ == "__main__":
    main()
