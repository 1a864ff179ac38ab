"""Per-block partial results with a registered block size: each block of ``block_m`` rows
(the config's) sums its rows' squares with an inner loop over the block's own range into a tile
made by ``x.new_full`` in device code, stores it scaled by ``1 / block_m`` into its row of a
host array of ``(m + block_m - 1) // block_m`` rows, and the host adds the rows up and scales
back. The result, the column sums of squares, is the same for every block; the inner loop runs
under every strategy that applies (README, "Registered block sizes as values")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def block_square_sums(x: torch.Tensor) -> torch.Tensor:
    """The float32 sums of squares of ``x``'s columns ([m, n] -> [n])."""
    m, n = x.size()
    block_m = hl.register_block_size(m)
    partial = x.new_empty([(m + block_m - 1) // block_m, n], dtype=torch.float32)
    for outer in hl.tile(m, block_size=block_m):
        acc = x.new_full([n], 0.0, dtype=torch.float32)
        # A tile of x's own dtype (no dtype given), zero: promoted to float32 by the sum.
        offset = x.new_zeros([n])
        for rows in hl.tile(outer.begin, outer.end):
            values = x[rows, :].to(torch.float32)
            acc += (values * values).sum(0) + offset
        partial[outer.id, :] = acc / block_m
    return partial.sum(0) * block_m


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    torch.testing.assert_close(block_square_sums(x), (x * x).sum(0), rtol=1e-4, atol=1e-4)


if __name__ == "__main__":
    check(1000, 256)
