"""Expectations of samples/band_row_sum.py: inner-loop bounds from max/min of the outer tile's
bounds.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec


def ref_band_row_sum(x, width):
    rows, cols = x.shape
    offset = np.arange(rows)[:, None] - np.arange(cols)[None, :]
    inside = (offset >= 0) & (offset <= width)
    return (np.where(inside, f64(x), 0).sum(-1).astype(np.float32),)


SPEC = SampleSpec(
    name="band_row_sum",
    kernel="band_row_sum",
    # the row tile, then the inner column loop
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_band_row_sum,
    scalars=({}, {"width": 0}, {"width": 1000}),
    extra_shapes=("x=1x1:f32", "x=9x129:f32"),
    tolerance=SUM_TOLERANCE,
    loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
    refused_loop_types=(("grid",),),
    inner_dims=((1, "x", 1),),
    notes="inner-loop bounds from the outer tile",
)
