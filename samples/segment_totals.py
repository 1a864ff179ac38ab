"""One total per segment of a jagged array: ``hl.grid`` over the segments, an inner loop over
each segment's rows (bounds read from ``offsets``), and ``out[g] = total``, a scalar index on
the only axis of ``out``, which starts at ten. helionc keeps ``out`` whole in its block, resident
across the segments' steps, and writes each total with a lane select (README, "Stores that
pick elements")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def segment_totals(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    """``10 +`` the float32 sum of each segment's rows of a 2-D ``x``; the result is
    [segments]."""
    _, d = x.size()
    out = torch.full([offsets.size(0) - 1], 10.0, dtype=torch.float32, device=x.device)
    for g in hl.grid(offsets.size(0) - 1):
        start = offsets[g]
        end = offsets[g + 1]
        acc = hl.zeros([d], dtype=torch.float32)
        for tile in hl.tile(start, end):
            acc = acc + x[tile, :].to(torch.float32).sum(0)
        out[g] = out[g] + acc.sum(0)
    return out


def check(rows: int, d: int) -> None:
    x = torch.randn([rows, d], device="cuda")
    offsets = torch.tensor([0, 3, 3, rows // 2, rows], device="cuda", dtype=torch.int32)
    want = 10 + torch.stack([x[a:b].sum() for a, b in zip(offsets[:-1], offsets[1:])])
    torch.testing.assert_close(segment_totals(x, offsets), want, rtol=1e-4, atol=1e-4)


if __name__ == "__main__":
    check(100, 128)
