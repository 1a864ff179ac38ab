"""One-element tuples: a shape unpacked into one name (``(n,) = x.size()``), a tile loop over a
one-element list unpacked into one tile (``for (tile,) in hl.tile([n])``) and a kernel that
returns a tuple of one tensor (``return (out,)``). Each is a tuple, not the thing it holds:
``n`` is an int, and the caller gets a 1-tuple back."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def scaled_copy(x: torch.Tensor, scale: float = 2.0) -> tuple[torch.Tensor]:
    """``(x * scale,)`` for a 1-D ``x``."""
    (n,) = x.size()
    out = torch.empty([n], dtype=x.dtype, device=x.device)
    for (tile,) in hl.tile([n]):
        out[tile] = x[tile] * scale
    return (out,)


def check(n: int) -> None:
    x = torch.randn([n], device="cuda")
    (got,) = scaled_copy(x)
    torch.testing.assert_close(got, x * 2.0)


if __name__ == "__main__":
    check(4096)
