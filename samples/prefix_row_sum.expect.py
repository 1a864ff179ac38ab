"""Expectations of samples/prefix_row_sum.py: column sums of the first lengths[b] rows in float32."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec, lengths_below, remember_shape


def ref_prefix_row_sum(x, lengths):
    return (np.stack([f64(x)[:n].sum(axis=0) for n in lengths]).astype(np.float32),)


SPEC = SampleSpec(
    name="prefix_row_sum",
    kernel="prefix_row_sum",
    eager_reference=True,
    configs={"b8": (8,), "b16": (16,)},
    reference=ref_prefix_row_sum,
    inputs={"x": remember_shape("x"), "lengths": lengths_below("x", 0)},
    extra_shapes=("x=9x128:f32,lengths=3:i32", "x=33x7:bf16,lengths=2:i32"),
    tolerance=SUM_TOLERANCE,
    loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
    refused_loop_types=(("grid",),),
    inner_dims=((0, "x", 0),),
    notes="a loop end read from a tensor",
)
