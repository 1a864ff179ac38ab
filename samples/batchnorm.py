"""Batch-norm inference on a channels-last [batch, tokens, channels] activation.

One program per batch element (``hl.grid``): the whole [tokens, channels] slab of that element
is normalised with per-channel statistics broadcast along the tokens (``stat[None, :]``).
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def batchnorm(
    x: torch.Tensor,
    mean: torch.Tensor,
    var: torch.Tensor,
    weight: torch.Tensor,
    bias: torch.Tensor,
    eps: float = 1e-5,
) -> torch.Tensor:
    """``(x - mean) / sqrt(var + eps) * weight + bias`` with [channels] statistics."""
    batch, tokens, channels = x.size()
    out = torch.empty_like(x)
    for b in hl.grid(batch):
        inv_std = torch.rsqrt(var[None, :] + eps)
        out[b, :, :] = (x[b, :, :] - mean[None, :]) * inv_std * weight[None, :] + bias[None, :]
    return out


def main() -> None:
    x = torch.randn(8, 1024, 768, device="cuda")
    stats = [torch.randn(768, device="cuda") for _ in range(4)]
    stats[1] = stats[1].abs()
    expected = torch.nn.functional.batch_norm(
        x.permute(0, 2, 1), stats[0], stats[1], stats[2], stats[3], eps=1e-5
    ).permute(0, 2, 1)
    torch.testing.assert_close(batchnorm(x, *stats), expected)


if __name__ == "__main__":
    main()
