"""Expectations of samples/segment_totals.py: float32 sums of each segment's rows (0 for an empty
one), added to out's initial tens.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec, remember_shape, segment_offsets


def ref_segment_totals(x, offsets):
    totals = [f64(x)[offsets[g]:offsets[g + 1]].sum() for g in range(len(offsets) - 1)]
    return ((10 + np.array(totals)).astype(np.float32),)


SPEC = SampleSpec(
    name="segment_totals",
    kernel="segment_totals",
    eager_reference=True,
    configs={"b8": (8,), "b16": (16,)},
    reference=ref_segment_totals,
    inputs={"x": remember_shape("x"), "offsets": segment_offsets("x", 0)},
    extra_shapes=("x=9x128:f32,offsets=3:i32", "x=33x7:bf16,offsets=6:i32"),
    tolerance=SUM_TOLERANCE,
    loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
    refused_loop_types=(("grid",),),
    inner_dims=((0, "x", 0),),
    notes="out[g] = a segment's total after an inner loop with bounds read from a tensor",
)
