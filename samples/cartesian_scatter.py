"""Stores and scatter-adds through two tiles of indices, one per axis of a 2-D array: Helion
indexes the cartesian product, so ``hl.store(out, [rows[tile_i], cols[tile_j]], v,
extra_mask=v > 0)`` writes ``v[i, j]`` at ``(rows[i], cols[j])`` where it is positive (the
others keep their old values, read through the same two tiles of indices), and ``hl.atomic_add(acc, [rrows[tile_i], rcols[tile_j]], v)`` adds
it there, every repeated pair adding. helionc keeps both arrays whole in their blocks, resident
across every step, and scatters the rows' one-hot then the columns' (``_scatter_cartesian``; of
repeated indices of a store the last pair counts). README, "Stores that pick elements" and
"Atomic updates"."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def cartesian_scatter(
    acc: torch.Tensor,
    values: torch.Tensor,
    rows: torch.Tensor,
    cols: torch.Tensor,
    rrows: torch.Tensor,
    rcols: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor]:
    """``out[rows[i], cols[j]] = values[i, j]`` where positive (distinct ``rows``, ``cols``;
    ones elsewhere) and ``acc[rrows[i], rcols[j]] += values[i, j]`` in place (repeats add)."""
    kr, kc = values.size()
    out = torch.ones_like(acc)
    for tile_i, tile_j in hl.tile([kr, kc]):
        v = values[tile_i, tile_j]
        hl.store(out, [rows[tile_i], cols[tile_j]], v, extra_mask=v > 0)
        hl.atomic_add(acc, [rrows[tile_i], rcols[tile_j]], v)
    return out, acc


def check(m: int, n: int, kr: int, kc: int) -> None:
    acc = torch.randn([m, n], device="cuda")
    values = torch.randn([kr, kc], device="cuda")
    rows = torch.randperm(m, device="cuda")[:kr].to(torch.int32)
    cols = torch.randperm(n, device="cuda")[:kc].to(torch.int32)
    rrows = torch.randint(0, m, [kr], device="cuda", dtype=torch.int32)
    rcols = torch.randint(0, n, [kc], device="cuda", dtype=torch.int32)
    want_out = torch.ones_like(acc)
    want_out[rows.long()[:, None], cols.long()[None, :]] = torch.where(values > 0, values, 1.0)
    want_acc = acc.clone()
    want_acc.index_put_((rrows.long()[:, None], rcols.long()[None, :]), values, accumulate=True)
    out, got_acc = cartesian_scatter(acc, values, rows, cols, rrows, rcols)
    torch.testing.assert_close(out, want_out)
    torch.testing.assert_close(got_acc, want_acc)


if __name__ == "__main__":
    check(64, 512, 40, 300)
