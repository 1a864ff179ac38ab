"""Expectations of samples/jagged_center.py: each segment minus its mean (in float32), in x's dtype."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec, remember_shape, segment_offsets


def ref_jagged_center(x, offsets):
    out = f64(x).copy()
    for g in range(len(offsets) - 1):
        segment = slice(offsets[g], offsets[g + 1])
        if offsets[g + 1] > offsets[g]:
            out[segment] -= f64(x)[segment].astype(np.float32).mean(dtype=np.float64)
    return (out.astype(x.dtype),)


SPEC = SampleSpec(
    name="jagged_center",
    kernel="jagged_center",
    eager_reference=True,
    configs={"b8k8": (8, 8, 8), "b16k16": (16, 16, 8)},
    reference=ref_jagged_center,
    inputs={"x": remember_shape("x"), "offsets": segment_offsets("x", 0)},
    extra_shapes=("x=1:f32,offsets=2:i32",),
    tolerance=SUM_TOLERANCE,
    loop_types=(("unroll", "unroll"),),
    refused_loop_types=(("grid", "grid"), ("fori_loop", "fori_loop")),
    inner_dims=((1, "x", 0), (2, "x", 0)),  # as jagged_gather_sum's
    notes="hl.jagged_tile scattering through offsets: the store masked per row",
)
