"""A running sum over tokens, one token at a time out of each loaded block: the loop over
blocks of `tokens` loads `x[outer, :]`, an inner loop walks its live rows one by one, and each
step stores the sum so far at row `outer.begin + local.begin`. That row moves inside one kernel
invocation, so `out` is whole in VMEM along its rows and each store puts one row (README,
"Stores that pick elements")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def token_prefix_sums(x: torch.Tensor, start: torch.Tensor) -> torch.Tensor:
    """``start + x.cumsum(0)`` in float32, cast to x's dtype, for ``x`` [tokens, width] and
    ``start`` [1, width]."""
    tokens, _width = x.size()
    out = torch.empty_like(x)
    for program in hl.grid(1):
        total = start[program, :].to(torch.float32)
        for outer in hl.tile(tokens):
            x_block = x[outer, :]
            live = outer.end - outer.begin
            for local in hl.tile(live, block_size=1):
                total = total + x_block[local.begin, :].to(torch.float32)
                out[outer.begin + local.begin, :] = total.to(out.dtype)
    return out


def check(tokens: int, width: int) -> None:
    x = torch.randn([tokens, width], device="cuda")
    start = torch.randn([1, width], device="cuda")
    torch.testing.assert_close(token_prefix_sums(x, start), start + x.cumsum(0))


if __name__ == "__main__":
    check(9, 128)
