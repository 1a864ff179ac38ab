"""Expectations of samples/weighted_row_sum.py."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import ALL_STRATEGIES, SUM_TOLERANCE, SampleSpec


def ref_weighted_row_sum(x, w):
    return ((f64(x) * f64(w)).sum(-1).astype(np.float32),)


SPEC = SampleSpec(
    name="weighted_row_sum",
    kernel="weighted_row_sum",
    configs={"b8x128": (8, 128), "b32x512": (32, 512)},
    reference=ref_weighted_row_sum,
    extra_shapes=("x=1x1:f32,w=1x1:f32", "x=9x129:f32,w=9x1:f32"),
    tolerance=SUM_TOLERANCE,
    loop_types=ALL_STRATEGIES,
    inner_dims=((1, "x", 1),),
)
