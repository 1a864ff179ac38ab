"""Constant windows of a loaded block: row 1 (`x_block[1]`), rows 1 and 2 (`x_block[1:3]`), a
panel of the last axis (`[..., 128:256]`, `64 + hl.arange(128)`) and one head
(`x_block[:, 0]`). Every block of `tokens` must hold the three rows read: the module checks the
block size and the number of tokens while it traces (a call whose last block is shorter is an
error, as Helion's eager indexing is), and that x's last axis has the 256 columns read."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def fixed_row_windows(x: torch.Tensor) -> torch.Tensor:
    """Per block of 4 tokens of ``x`` [tokens, 2, 256]: row 1's first 128 columns, rows 1 and
    2's last 128, and head 0's columns 64..191 of every live row, summed in float32."""
    tokens, heads, _width = x.size()
    out = torch.empty([1, heads, 128], dtype=torch.float32, device=x.device)
    for _request in hl.grid(1):
        acc = hl.zeros([2, 128], dtype=torch.float32)
        for outer in hl.tile(tokens, block_size=4):
            x_block = x[outer, :, :]
            acc = acc + x_block[1, :, 0:128].to(torch.float32)
            acc = acc + x_block[1:3, :, 128:256].to(torch.float32).sum(dim=0)
            head = x_block[:, 0, 64 + hl.arange(128)].to(torch.float32)
            acc = acc + head.sum(dim=0)[None, :]
        out[0, :, :] = acc
    return out


def check(tokens: int) -> None:
    x = torch.randn([tokens, 2, 256], device="cuda")
    expected = torch.zeros([1, 2, 128], device="cuda")
    for start in range(0, tokens, 4):
        block = x[start : start + 4]
        expected += block[1, :, :128] + block[1:3, :, 128:256].sum(0) + block[:, 0, 64:192].sum(0)
    torch.testing.assert_close(fixed_row_windows(x), expected)


if __name__ == "__main__":
    check(7)
