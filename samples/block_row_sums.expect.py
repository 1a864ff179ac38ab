"""Expectations of samples/block_row_sums.py: each column's sum, in float32."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import ALL_STRATEGIES, SUM_TOLERANCE, SampleSpec


def ref_block_row_sums(x):
    return (f64(x).sum(axis=0).astype(np.float32),)


SPEC = SampleSpec(
    name="block_row_sums",
    kernel="block_row_sums",
    # the registered block_m (rows, 8..32), then tile_n
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_block_row_sums,
    # 9 rows: a loop shorter than the registered block's value keeps that block (Helion's
    # value of `block_m`), its rows past the 9th masked.
    extra_shapes=("x=33x1:f32", "x=40x129:bf16", "x=9x130:f32"),
    tolerance=SUM_TOLERANCE,
    loop_types=ALL_STRATEGIES,
    inner_dims=((0, "x", 0),),
    notes="a registered block's partial last tile in the reference (its blocks of 32 rows)",
)
