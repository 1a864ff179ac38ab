"""Sum of each row of a long tensor with an explicit inner loop over the row (after Helion's
examples/long_sum.py): a per-row float32 accumulator carried across the column tiles.

Helion's example carries a [tile_m, block_size_n] accumulator (``hl.zeros([tile_m,
block_size_n])`` of a registered block size), which helionc does not support yet
(tests/e2e/pending/long_sum.py); here each column tile is reduced as it arrives. The accumulator
is float32: summing thousands of bfloat16 values in bfloat16 would lose most of their bits.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def long_sum(x: torch.Tensor) -> torch.Tensor:
    """Sum along the last dimension of a 2-D tensor: [m, n] -> [m], in x's dtype."""
    m, n = x.size()
    out = torch.empty([m], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(n):  # the reduction loop over long rows
            acc += x[tile_m, tile_n].to(torch.float32).sum(-1)
        out[tile_m] = acc
    return out


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda", dtype=torch.float32)
    torch.testing.assert_close(long_sum(x), x.sum(-1), rtol=1e-2, atol=1e-1)


def main() -> None:
    check(4, 131072)  # seq_len = 128k


if __name__ == "__main__":
    main()
