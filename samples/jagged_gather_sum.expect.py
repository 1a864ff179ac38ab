"""Expectations of samples/jagged_gather_sum.py: float32 sums of each segment of a 1-D x; an empty
one sums to 0.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec, remember_shape, segment_offsets


def ref_jagged_gather_sum(x, offsets):
    return (np.array([f64(x)[offsets[g]:offsets[g + 1]].sum()
                      for g in range(len(offsets) - 1)]).astype(np.float32),)


SPEC = SampleSpec(
    name="jagged_gather_sum",
    kernel="jagged_gather_sum",
    eager_reference=True,
    configs={"b8k8": (8, 8), "b16k16": (16, 16)},
    reference=ref_jagged_gather_sum,
    inputs={"x": remember_shape("x"), "offsets": segment_offsets("x", 0)},
    extra_shapes=("x=1:f32,offsets=2:i32",),
    tolerance=SUM_TOLERANCE,
    loop_types=(("unroll",),),
    refused_loop_types=(("grid",), ("fori_loop",), ("emit_pipeline",)),
    # A segment is at most x's length: calls whose x the blocks do not divide draw segments
    # of lengths the inner block does not divide (the offsets are random).
    inner_dims=((1, "x", 0),),
    notes="hl.jagged_tile gathering each row's segment through offsets",
)
