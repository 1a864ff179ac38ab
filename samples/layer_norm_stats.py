"""Layer norm forward that also returns the per-row mean and reciprocal standard deviation.

This is the training form (Helion's examples/layer_norm.py ``layer_norm_fwd``): the backward
pass reuses ``mean`` and ``rstd``, so they are stored as float32 [m] vectors next to ``out``.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(config=helion.Config(block_sizes=[32], num_warps=4))
def layer_norm_fwd(
    x: torch.Tensor,
    weight: torch.Tensor,
    bias: torch.Tensor | None = None,
    eps: float = 1e-5,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Returns ``(out, mean, rstd)``; ``out`` has ``x``'s dtype, the statistics are float32."""
    m, n = x.size()
    assert weight.size(0) == n, f"weight size mismatch {weight.size(0)} != {n}"
    out = torch.empty([m, n], dtype=x.dtype, device=x.device)
    mean = torch.empty([m], dtype=torch.float32, device=x.device)
    rstd = torch.empty([m], dtype=torch.float32, device=x.device)

    for tile_m in hl.tile(m):
        acc = x[tile_m, :].to(torch.float32)
        mean_val = torch.sum(acc, dim=-1) / n
        centered = acc - mean_val[:, None]
        var_val = torch.sum(centered * centered, dim=-1) / n
        rstd_val = torch.rsqrt(var_val + eps)
        normalized = centered * rstd_val[:, None]
        if bias is not None:
            acc = normalized * (weight[:].to(torch.float32)) + (bias[:].to(torch.float32))
        else:
            acc = normalized * (weight[:].to(torch.float32))
        out[tile_m, :] = acc.to(x.dtype)
        mean[tile_m] = mean_val
        rstd[tile_m] = rstd_val
    return out, mean, rstd


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda", dtype=torch.float16)
    weight = torch.randn([n], device="cuda", dtype=torch.float16)
    out, mean, rstd = layer_norm_fwd(x, weight)
    x32 = x.float()
    torch.testing.assert_close(mean, x32.mean(-1))
    torch.testing.assert_close(rstd, torch.rsqrt(x32.var(-1, unbiased=False) + 1e-5))
    torch.testing.assert_close(out, torch.nn.functional.layer_norm(x, [n], weight, eps=1e-5))


if __name__ == "__main__":
    check(4096, 4096)
