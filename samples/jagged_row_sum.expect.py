"""Expectations of samples/jagged_row_sum.py: per-segment column sums in float32; an empty segment
sums to 0.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec, remember_shape, segment_offsets


def ref_jagged_row_sum(x, offsets):
    return (np.stack([f64(x)[offsets[g]:offsets[g + 1]].sum(axis=0)
                      for g in range(len(offsets) - 1)]).astype(np.float32),)


SPEC = SampleSpec(
    name="jagged_row_sum",
    kernel="jagged_row_sum",
    eager_reference=True,
    configs={"b8": (8,), "b16": (16,)},
    reference=ref_jagged_row_sum,
    inputs={"x": remember_shape("x"), "offsets": segment_offsets("x", 0)},
    extra_shapes=("x=9x128:f32,offsets=3:i32", "x=33x7:bf16,offsets=6:i32"),
    tolerance=SUM_TOLERANCE,
    loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
    refused_loop_types=(("grid",),),
    inner_dims=((0, "x", 0),),
    notes="loop bounds read from a tensor; a masked sum per segment",
)
