"""Softmax written out by hand: subtract the row maximum, exponentiate, divide by the row sum.

This is the form most Helion users start from (examples/softmax.py, ``softmax_decomposed``).
The padding of a partial row must read as ``-inf`` for ``amax`` and as ``0`` for ``sum``.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def softmax_decomposed(x: torch.Tensor) -> torch.Tensor:
    """``softmax(x, dim=-1)``, numerically stable, for a 2-D ``x``."""
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        values = x[tile_m, :]
        amax = torch.amax(values, dim=1, keepdim=True)
        exp = torch.exp(values - amax)
        sum_exp = torch.sum(exp, dim=1, keepdim=True)
        out[tile_m, :] = exp / sum_exp
    return out


def check(m: int, n: int) -> None:
    from helion._testing import run_example

    x = torch.randn([m, n], device="cuda", dtype=torch.float16)
    run_example(softmax_decomposed, lambda x: torch.nn.functional.softmax(x, dim=-1), (x,))


def main() -> None:
    check(4096, 2560)


if __name__ == "__main__":
    main()
