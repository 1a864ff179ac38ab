"""A name bound on one branch of an `if` on a static value: with `with_y` (an `hl.constexpr`),
the kernel also accumulates `y`'s column sums in `acc_y`, bound under `if with_y:` and read only
under the same condition, in the inner loop and after it. Helion compiles only the branch the
value takes; the module keeps both branches as Python `if`s resolved while JAX traces, and
gives `acc_y` zeros on the other branch so the inner loop can carry it under every strategy."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def optional_col_sums(
    x: torch.Tensor, y: torch.Tensor, with_y: hl.constexpr = True
) -> torch.Tensor:
    """Row 0: x's column sums; row 1: y's (with ``with_y``) or -1, for ``x``, ``y`` [rows,
    width]; float32 [2, width]."""
    rows, width = x.size()
    out = torch.empty([2, width], dtype=torch.float32, device=x.device)
    for tile_n in hl.tile(width):
        acc_x = hl.zeros([tile_n], dtype=torch.float32)
        if with_y:
            acc_y = hl.zeros([tile_n], dtype=torch.float32)
        for tile_m in hl.tile(rows):
            acc_x += x[tile_m, tile_n].to(torch.float32).sum(0)
            if with_y:
                acc_y += y[tile_m, tile_n].to(torch.float32).sum(0)
        out[0, tile_n] = acc_x
        if with_y:
            out[1, tile_n] = acc_y
        else:
            out[1, tile_n] = acc_x * 0.0 - 1.0
    return out


def check(rows: int, width: int) -> None:
    x = torch.randn([rows, width], device="cuda")
    y = torch.randn([rows, width], device="cuda")
    for with_y in (True, False):
        expected = torch.stack([x.sum(0), y.sum(0) if with_y else torch.full_like(x[0], -1.0)])
        torch.testing.assert_close(optional_col_sums(x, y, with_y), expected)


if __name__ == "__main__":
    check(64, 256)
