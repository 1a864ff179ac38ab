"""Expectations of samples/causal_row_sum.py: sums of the lower triangle's rows, float32."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec


def ref_causal_row_sum(x):
    return (np.tril(f64(x)).sum(axis=-1).astype(np.float32),)


SPEC = SampleSpec(
    name="causal_row_sum",
    kernel="causal_row_sum",
    # rows, then the inner loop's columns (bounded by the row tile's end)
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_causal_row_sum,
    extra_shapes=("x=1x1:f32", "x=9x9:bf16"),
    tolerance=SUM_TOLERANCE,
    # no `grid`: the loop's bounds move with the outer tile
    loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
    refused_loop_types=(("grid",),),
    inner_dims=((1, "x", 1),),
)
