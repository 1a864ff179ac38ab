"""Module-level names a kernel reads: a config given by name (``config=CONFIG``, a
``helion.Config`` built from a module-level ``BLOCK``, with Helion's one-string
``pallas_loop_type``), a float constant and a dtype. helionc compiles their values in, as
Python reads them when the kernel runs."""

from __future__ import annotations

import torch

import helion
import helion.language as hl

BLOCK = 16
_SCALE = 0.5
ACC_DTYPE = torch.float32
CONFIG = helion.Config(block_sizes=[BLOCK, 256], pallas_loop_type="unroll", num_warps=4)


@helion.kernel(config=CONFIG, static_shapes=True)
def scaled_row_sum(x: torch.Tensor) -> torch.Tensor:
    """``x.sum(-1) * _SCALE`` accumulated in ``ACC_DTYPE`` for ``x`` [m, n]."""
    m, n = x.size()
    out = torch.empty([m], dtype=ACC_DTYPE, device=x.device)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m], dtype=ACC_DTYPE)
        for tile_n in hl.tile(n):
            acc = acc + x[tile_m, tile_n].to(ACC_DTYPE).sum(-1)
        out[tile_m] = acc * _SCALE
    return out


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    torch.testing.assert_close(scaled_row_sum(x), x.sum(-1) * _SCALE)


if __name__ == "__main__":
    check(1024, 1024)
