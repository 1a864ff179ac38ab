"""An `if` on a device scalar around windows of a loaded block: only blocks of `tokens` with at
least three live rows count, and their last three live rows (`x_block[live - 3 : live]`, a
window the `if` keeps inside the block) count again at half weight. Both sides of the `if` are computed and the carried sum selected
(`jnp.where(live >= 3, ...)`), so the short last block of 5 or 13 tokens is left out, and the
window's rows are named before the branch (`rows = pair.index`)."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def live_row_if(x: torch.Tensor) -> torch.Tensor:
    """The float32 sum of the blocks of 4 tokens of ``x`` [tokens, 2, 128] that hold 3 or 4,
    plus half of each such block's last three rows."""
    tokens, heads, width = x.size()
    out = torch.empty([1, heads, width], dtype=torch.float32, device=x.device)
    for _request in hl.grid(1):
        acc = hl.zeros([2, 128], dtype=torch.float32)
        for outer in hl.tile(tokens, block_size=4):
            x_block = x[outer, :, :]
            live = outer.end - outer.begin
            for pair in hl.tile(live, block_size=2):
                rows = pair.index
                if live >= 3:
                    acc = acc + x_block[rows, :, :].to(torch.float32).sum(dim=0)
            if live >= 3:
                # the last three live rows once more, at half weight
                tail = x_block[live - 3 : live, :, :].to(torch.float32).sum(dim=0)
                acc = acc + 0.5 * tail
        out[0, :, :] = acc
    return out


def check(tokens: int) -> None:
    x = torch.randn([tokens, 2, 128], device="cuda")
    kept = [x[s : s + 4] for s in range(0, tokens, 4) if min(4, tokens - s) >= 3]
    expected = torch.stack([b.sum(0) + 0.5 * b[-3:].sum(0) for b in kept]).sum(0, keepdim=True)
    torch.testing.assert_close(live_row_if(x), expected)


if __name__ == "__main__":
    check(13)
