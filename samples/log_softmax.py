"""Row-wise log-softmax over the last dimension (the log-probabilities of a classifier).

Written with ``torch.nn.functional.log_softmax``; PyTorch computes 16-bit inputs in float32
internally and rounds the result to the input's dtype.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

import helion
import helion.language as hl


@helion.kernel()
def log_softmax(x: torch.Tensor) -> torch.Tensor:
    """``F.log_softmax(x, dim=-1)`` for a 2-D ``x``."""
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        out[tile_m, :] = F.log_softmax(x[tile_m, :], dim=-1)
    return out


def check() -> None:
    x = torch.randn(1024, 32000, device="cuda", dtype=torch.bfloat16)
    torch.testing.assert_close(log_softmax(x), F.log_softmax(x, dim=-1))


if __name__ == "__main__":
    check()
