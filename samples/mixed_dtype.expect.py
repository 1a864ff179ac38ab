"""Expectations of samples/mixed_dtype.py: bf16 -> f32 -> bf16 GEGLU."""

from __future__ import annotations

import math

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


erf = np.vectorize(math.erf, otypes=[np.float64])


def ref_geglu(x, y, scale):
    a = f64(x)
    gelu = 0.5 * a * (1.0 + erf(a / math.sqrt(2.0)))
    return ((scale * gelu * f64(y)).astype(BFLOAT16),)


SPEC = SampleSpec(
    name="mixed_dtype",
    kernel="geglu",
    configs={"b16x128": (16, 128), "b32x512": (32, 512)},
    reference=ref_geglu,
    scalars=({}, {"scale": 0.125}),
    extra_shapes=("x=3x7:bf16,y=3x7:bf16",),
)
