"""Expectations of samples/rows_from_sum.py."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec


def ref_rows_from_sum(x, start=0):
    return (f64(x)[start:].sum(axis=0).astype(np.float32),)  # empty when start >= m: zeros


SPEC = SampleSpec(
    name="rows_from_sum",
    kernel="rows_from_sum",
    # columns, then the inner loop's rows
    configs={"b128x8": (128, 8), "b256x32": (256, 32)},
    reference=ref_rows_from_sum,
    # a start inside the first block, one on a block boundary, none, and past the end
    scalars=({"start": 3}, {"start": 8}, {}, {"start": 1000}),
    extra_shapes=("x=9x129:bf16", "x=5x7:f32"),
    tolerance=SUM_TOLERANCE,
    loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
    inner_dims=((1, "x", 0),),
    notes="an inner loop with a start; an empty range",
)
