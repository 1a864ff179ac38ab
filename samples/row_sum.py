"""Sum of each row (Helion's examples/sum.py): ``x.sum(-1)`` for a 2-D ``x``.

16-bit inputs are accumulated in float32 and the result rounded to the input dtype, as
``torch.sum`` does.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def sum_kernel(x: torch.Tensor) -> torch.Tensor:
    """Sum along the last dimension of a 2-D tensor: [m, n] -> [m]."""
    m, n = x.shape
    out = torch.empty([m], dtype=x.dtype, device=x.device)

    for tile_m in hl.tile(m):
        out[tile_m] = x[tile_m, :].sum(-1)
    return out


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda", dtype=torch.float32)
    torch.testing.assert_close(sum_kernel(x), x.sum(-1))


def main() -> None:
    check(5120, 2560)


if __name__ == "__main__":
    main()
