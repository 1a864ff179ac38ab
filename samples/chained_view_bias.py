"""An allocation viewed in the same statement (`torch.empty((m * n,), ...).view(m, n)`, the
shape a tuple), and `if bias is not None:` inside an inner loop: the condition looks at a
tensor argument, so the module decides it before the launch (the launch takes `bias` or not)
and the kernel holds only the branch taken."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def chained_view_bias(x: torch.Tensor, bias: torch.Tensor | None = None) -> torch.Tensor:
    """``(2 * x + bias).view(-1)`` for ``x`` [m, n] and ``bias`` [n] (``2 * x`` without it)."""
    m, n = x.size()
    out = torch.empty((m * n,), dtype=x.dtype, device=x.device).view(m, n)
    for tile_m in hl.tile(m):
        for tile_n in hl.tile(n):
            v = x[tile_m, tile_n] * 2
            if bias is not None:
                v = v + bias[tile_n][None, :]
            out[tile_m, tile_n] = v
    return out.view(-1)


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    bias = torch.randn([n], device="cuda")
    torch.testing.assert_close(chained_view_bias(x, bias), (2 * x + bias).view(-1))
    torch.testing.assert_close(chained_view_bias(x), (2 * x).view(-1))


if __name__ == "__main__":
    check(64, 130)
