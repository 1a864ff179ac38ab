"""Expectations of samples/row_center.py: (rows - mean) * w[row] in x's dtype, and the float32
means.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec


def ref_row_center(x, w):
    v = f64(x)
    mean = v.mean(axis=-1, keepdims=True)
    return ((v - mean) * f64(w)[:, None]).astype(x.dtype), mean[:, 0].astype(np.float32)


SPEC = SampleSpec(
    name="row_center",
    kernel="row_center",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_row_center,
    extra_shapes=("x=1x1:f32,w=1:f32", "x=9x129:bf16,w=9:bf16"),
    tolerance=SUM_TOLERANCE,
)
