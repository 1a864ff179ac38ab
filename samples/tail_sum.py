"""Per row, the sum of every element but the first of each innermost vector.

Exercises a bounded slice of the last axis (`x[tile_m, tile_n, 1:]`) read in an inner loop, so
under every loop strategy: windows of a resident block (`unroll`), grid steps, the blocks of
`emit_pipeline` and the buffers of `fori_loop`; the partial blocks of the inner loop are masked
for the sum along `tile_n` while the slice's axis needs none.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def tail_sum(x: torch.Tensor) -> torch.Tensor:
    m, n, c = x.size()
    out = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(n):
            acc = acc + x[tile_m, tile_n, 1:].to(torch.float32).sum(dim=2).sum(dim=1)
        out[tile_m] = acc
    return out


def check() -> None:
    x = torch.randn(100, 300, 4, device="cuda")
    torch.testing.assert_close(tail_sum(x), x[:, :, 1:].sum(dim=(1, 2)), rtol=1e-4, atol=1e-3)


if __name__ == "__main__":
    check()
