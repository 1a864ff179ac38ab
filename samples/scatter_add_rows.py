"""A scatter-add through a tile of indices: ``hl.atomic_add(table, [ids[tile_k], tile_n], v)``
adds each row of ``values`` into the row of ``table`` that ``ids`` names, in place; repeated
indices all add (a plain scatter would let the last one count). helionc keeps ``table``'s rows
whole in the output's block, resident across the steps of the indices' dimension (run innermost,
"arbitrary"), copies the old rows in at the first of them, and adds each block with a one-hot
matmul (``_scatter(..., add=True)``: ``block + one_hot(ids).T @ values``; the padding of a
partial block adds nothing). README, "Atomic updates"."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def scatter_add_rows(table: torch.Tensor, values: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    """``table[ids[i]] += values[i]`` for every ``i``, in place; returns ``table``."""
    k, n = values.size()
    for tile_k, tile_n in hl.tile([k, n]):
        hl.atomic_add(table, [ids[tile_k], tile_n], values[tile_k, tile_n])
    return table


def check(m: int, k: int, n: int) -> None:
    table = torch.randn([m, n], device="cuda")
    values = torch.randn([k, n], device="cuda")
    ids = torch.randint(0, m, [k], device="cuda", dtype=torch.int32)
    want = table.clone().index_add_(0, ids.long(), values)
    torch.testing.assert_close(scatter_add_rows(table, values, ids), want)


if __name__ == "__main__":
    check(64, 500, 384)
