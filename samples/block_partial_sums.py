"""An inner loop over the rows of its outer tile (`hl.tile(outer.begin, outer.end)`, as a
backward pass walks its block of rows) that stores each step and sums the rows it loads. Its
first and last windows of the resident block reach rows of the neighbouring outer tiles; the
sum masks the loaded rows to the loop's range, so the stores keep those rows' contents
instead of overwriting them (README "Inner loops and their strategies")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def block_partial_sums(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """``(2 * x, x.sum(0))`` for ``x`` [rows, width], the sum in float32 through one partial
    sum per block of rows."""
    rows, width = x.size()
    block_rows = hl.register_block_size(rows)
    blocks = (rows + block_rows - 1) // block_rows
    out = torch.empty_like(x)
    partial = x.new_empty([blocks, width], dtype=torch.float32)
    for outer in hl.tile(rows, block_size=block_rows):
        total = hl.zeros([width], dtype=torch.float32)
        for inner in hl.tile(outer.begin, outer.end):
            v = x[inner, :].to(torch.float32)
            total += v.sum(0)
            out[inner, :] = (v * 2.0).to(out.dtype)
        partial[outer.id, :] = total
    return out, partial.sum(0)


def check(rows: int, width: int) -> None:
    x = torch.randn([rows, width], device="cuda")
    out, sums = block_partial_sums(x)
    torch.testing.assert_close(out, 2 * x)
    torch.testing.assert_close(sums, x.sum(0))


if __name__ == "__main__":
    check(64, 256)
