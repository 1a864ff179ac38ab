"""A reduction over a two-dimensional inner tile loop: each batch's sum over all of its
[m, n] elements, accumulated block by block in a carried float32 value. The padding of the
partial last blocks along either dimension must not reach the sums."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def batch_sum(x: torch.Tensor) -> torch.Tensor:
    """``x.sum([1, 2])`` in float32 for ``x`` [b, m, n]."""
    b, m, n = x.size()
    out = torch.empty([b], dtype=torch.float32, device=x.device)
    for tile_b in hl.tile(b):
        acc = hl.zeros([tile_b], dtype=torch.float32)
        for tile_m, tile_n in hl.tile([m, n]):
            acc = acc + x[tile_b, tile_m, tile_n].to(torch.float32).sum(-1).sum(-1)
        out[tile_b] = acc
    return out


def check(b: int, m: int, n: int) -> None:
    x = torch.randn([b, m, n], device="cuda")
    torch.testing.assert_close(batch_sum(x), x.sum([1, 2]))


if __name__ == "__main__":
    check(4, 70, 130)
