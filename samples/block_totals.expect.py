"""Expectations of samples/block_totals.py: float32 sums of blocks of 128 (the last partial), and
ones at each block's first element.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec


def ref_block_totals(x):
    n = x.shape[0]
    sums = np.array([f64(x)[s:s + 128].sum() for s in range(0, n, 128)]).astype(np.float32)
    marks = np.zeros(n)
    marks[::128] = 1.0
    return sums, marks.astype(x.dtype)


SPEC = SampleSpec(
    name="block_totals",
    kernel="block_totals",
    configs={"none": ()},
    reference=ref_block_totals,
    extra_shapes=("x=1:f32", "x=129:f32", "x=300:bf16"),
    tolerance=SUM_TOLERANCE,
    notes="out[tile.id] and marks[tile.begin] of a loop with a fixed block size",
)
