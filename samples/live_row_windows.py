"""Windows of a loaded block, walked by loops over its live rows: each block of `tokens` rows is
loaded once, then read two rows at a time (`x_block[pair.index]`) and one row at a time
(`x_block[row.begin]`). The loops run over `outer.end - outer.begin`, so the partial last block
reads only its live rows, and the pair loop's own partial last step (an odd number of live rows)
is masked before the sum. The accumulator's sizes are numbers (`hl.zeros([2, 128])`): the module
checks that they are x's at trace time."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def live_row_windows(x: torch.Tensor) -> torch.Tensor:
    """``1.5 * x.sum(0, keepdim=True)`` in float32 for ``x`` [tokens, 2, 128]."""
    tokens, heads, width = x.size()
    out = torch.empty([1, heads, width], dtype=torch.float32, device=x.device)
    for _request in hl.grid(1):
        acc = hl.zeros([2, 128], dtype=torch.float32)
        for outer in hl.tile(tokens):
            x_block = x[outer, :, :]
            live = outer.end - outer.begin
            for pair in hl.tile(live, block_size=2):
                acc = acc + x_block[pair.index, :, :].to(torch.float32).sum(dim=0)
            for row in hl.tile(live, block_size=1):
                acc = acc + 0.5 * x_block[row.begin, :, :].to(torch.float32)
        out[0, :, :] = acc
    return out


def check(tokens: int) -> None:
    x = torch.randn([tokens, 2, 128], device="cuda")
    torch.testing.assert_close(live_row_windows(x), 1.5 * x.sum(0, keepdim=True))


if __name__ == "__main__":
    check(13)
