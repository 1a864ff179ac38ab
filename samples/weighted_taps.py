"""A short filter read with the index of an `hl.static_range`: `w[j]` indexes with `j`, a number
of the kernel (a Python int while JAX unrolls the loop) that no BlockSpec index map can see. `w`
is read with scalars alone, so it is whole in SMEM and the kernel indexes it with `j` (README,
"Scalar indices computed in the kernel")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def weighted_taps(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """``out[i] = sum_j w[j] * x[i + j]`` for ``x`` [n] and a short ``w`` [taps], reading zeros
    past the end of ``x``; in float32, cast to ``x``'s dtype."""
    (n,) = x.size()
    taps = hl.specialize(w.size(0))
    out = torch.empty_like(x)
    for tile in hl.tile(n):
        acc = hl.zeros([tile], dtype=torch.float32)
        for j in hl.static_range(taps):
            v = hl.load(x, [tile.index + j], extra_mask=tile.index + j < n)
            acc = acc + w[j].to(torch.float32) * v.to(torch.float32)
        out[tile] = acc.to(x.dtype)
    return out


def check(n: int, taps: int) -> None:
    x = torch.randn([n], device="cuda")
    w = torch.randn([taps], device="cuda")
    padded = torch.nn.functional.pad(x, (0, taps))
    expected = sum(w[j] * padded[j : j + n] for j in range(taps))
    torch.testing.assert_close(weighted_taps(x, w), expected)


if __name__ == "__main__":
    check(1000, 4)
