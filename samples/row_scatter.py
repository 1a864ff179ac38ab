"""Stores through a tile of indices (a scatter): each block of ``values`` rows goes, doubled,
to the rows of ``table`` that ``ids`` names, in place; the other rows keep their values.
helionc keeps ``table``'s rows whole in the output's block, resident across the steps of the
indices' dimension (which run innermost, "arbitrary"), copies the old rows in at the first of
them, and writes each block with a one-hot scatter (`_scatter`: of repeated indices the last
store counts; indices of a partial block's padding store nothing). README, "Stores that pick
elements"."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def row_scatter(table: torch.Tensor, values: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    """``table[ids] = 2 * values`` in place, for distinct ``ids``; returns ``table``."""
    k, n = values.size()
    for tile_k, tile_n in hl.tile([k, n]):
        table[ids[tile_k], tile_n] = values[tile_k, tile_n] * 2.0
    return table


def check(m: int, k: int, n: int) -> None:
    table = torch.randn([m, n], device="cuda")
    values = torch.randn([k, n], device="cuda")
    ids = torch.randperm(m, device="cuda")[:k].to(torch.int32)
    want = table.clone()
    want[ids.long()] = 2 * values
    torch.testing.assert_close(row_scatter(table, values, ids), want)


if __name__ == "__main__":
    check(512, 200, 384)
