"""Scatter-adds of one dimension: ``hl.atomic_add(totals, [ids[tile]], weights[tile])`` sums the
weights of each bin and ``hl.atomic_add(counts, [ids[tile]], 1)`` counts them (an int32 array and
a number as the value), both in place, so the old totals and counts count too. Repeated bins all
add. Floats add through a one-hot matmul, ints through a select-sum (``_scatter(..., add=True)``);
the padding of the last block adds nothing. README, "Atomic updates"."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def bin_totals(
    weights: torch.Tensor, ids: torch.Tensor, totals: torch.Tensor, counts: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """``totals[ids[i]] += weights[i]`` and ``counts[ids[i]] += 1``, in place."""
    for tile in hl.tile(weights.size(0)):
        bins = ids[tile]
        hl.atomic_add(totals, [bins], weights[tile])
        hl.atomic_add(counts, [bins], 1)
    return totals, counts


def check(n: int, bins: int) -> None:
    weights = torch.randn([n], device="cuda")
    ids = torch.randint(0, bins, [n], device="cuda", dtype=torch.int32)
    totals = torch.randn([bins], device="cuda")
    counts = torch.randint(0, 5, [bins], device="cuda", dtype=torch.int32)
    want_totals = totals.clone().index_add_(0, ids.long(), weights)
    want_counts = counts.clone().index_add_(0, ids.long(), torch.ones_like(ids))
    got_totals, got_counts = bin_totals(weights, ids, totals, counts)
    torch.testing.assert_close(got_totals, want_totals)
    torch.testing.assert_close(got_counts, want_counts)


if __name__ == "__main__":
    check(1000, 37)
