"""Masks and views whose TPU layouts Mosaic makes in some formulations only: a 1-D mask of a
tile's rows on a new last axis (`in_rows[:, None]`), a loaded bool mask the same way, a mask of a
reduction's results on a new last axis (`(rows.amax(2) > 0)[:, :, None]`), a NaN test of narrow
values selecting them, and a view that regroups the minor axes (`[m, 2, 64]` as `[m, 4, 32]`).
helionc prints masks compared from 32-bit values, selects narrow values as 32-bit ones, moves a
mask's axes as int32 values, and splits the regrouping into a merge and a split
(templates/helper_layout.py.tmpl)."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def mask_layouts(x: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
    """``x`` [m, 2, 64] viewed as [m, 4, 32], NaNs as 0, negated in the groups of 32 whose
    maximum is not positive and in the rows whose ``keep`` [m] (bool) is False."""
    m = x.size(0)
    out = torch.empty([m, 4, 32], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        rows = x[tile_m, :, :].reshape(tile_m, 128).view(tile_m, 4, 32)
        clean = torch.where(torch.isnan(rows), 0, rows)
        in_rows = tile_m.index < m
        positive = clean.amax(dim=2) > 0
        ok = keep[tile_m][:, None] & positive & in_rows[:, None]
        out[tile_m, :, :] = torch.where(ok[:, :, None], clean, -clean)
    return out


def check() -> None:
    x = torch.randn(100, 2, 64, device="cuda")
    keep = torch.rand(100, device="cuda") > 0.3
    rows = x.reshape(100, 4, 32)
    ok = keep[:, None] & (rows.amax(2) > 0)
    torch.testing.assert_close(mask_layouts(x, keep), torch.where(ok[:, :, None], rows, -rows))


if __name__ == "__main__":
    check()
