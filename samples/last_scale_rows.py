"""An inner loop that may not cover its output: under `hl.grid(g)`, each program scales the
rows of `x` by its own `scale[g]` into `out`, a parameter that may have more rows than `x`. The
rows past `x`'s keep their values, so `out`'s block holds its whole axis while the loop runs,
starts from the old contents, and each store is masked to the loop's range (README, "Inner loops
and their strategies"). The programs run in order; the last one's scale stays."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def last_scale_rows(x: torch.Tensor, out: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    """``out[:rows] = x * scale[-1]`` for ``x`` [rows, width], ``out`` [rows_out >= rows,
    width]; the other rows of ``out`` unchanged."""
    programs = scale.size(0)
    rows = x.size(0)
    for g in hl.grid(programs):
        s = scale[g]
        for tile in hl.tile(rows):
            out[tile, :] = x[tile, :] * s
    return out


def check(rows: int, rows_out: int, width: int) -> None:
    scale = torch.randn([3], device="cuda")
    x = torch.randn([rows, width], device="cuda")
    out = torch.randn([rows_out, width], device="cuda")
    expected = out.clone()
    expected[:rows] = x * scale[-1]
    torch.testing.assert_close(last_scale_rows(x, out, scale), expected)


if __name__ == "__main__":
    check(10, 16, 128)
