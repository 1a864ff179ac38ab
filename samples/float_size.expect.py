"""Expectations of samples/float_size.py: float(n) of sizes."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec


def ref_row_mean_scaled(x):
    m, n = x.shape
    return ((f64(x).sum(-1) / n / m).astype(np.float32),)


SPEC = SampleSpec(
    name="float_size",
    kernel="row_mean_scaled",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_row_mean_scaled,
    extra_shapes=("x=1x1:f32", "x=9x129:f32"),
    tolerance=SUM_TOLERANCE,
)
