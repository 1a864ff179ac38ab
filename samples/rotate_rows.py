"""Rows picked by an inner loop's position: under one program, a loop over the rows one at a
time reads row `(row.begin + 1) % rows` and stores row `row.begin`. Both indices change from one
step of the loop to the next inside one kernel invocation, where no BlockSpec index map can
follow them, so `x` and `out` are whole in VMEM along their rows and the kernel picks and puts
each row (README, "Stores that pick elements")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def rotate_rows(x: torch.Tensor) -> torch.Tensor:
    """``2 * x.roll(-1, dims=0)`` for ``x`` [rows, width]: row r is twice row (r + 1) % rows."""
    rows, _width = x.size()
    out = torch.empty_like(x)
    for _program in hl.grid(1):
        for row in hl.tile(rows, block_size=1):
            out[row.begin, :] = x[(row.begin + 1) % rows, :] * 2
    return out


def check(rows: int, width: int) -> None:
    x = torch.randn([rows, width], device="cuda")
    torch.testing.assert_close(rotate_rows(x), 2 * x.roll(-1, dims=0))


if __name__ == "__main__":
    check(5, 128)
