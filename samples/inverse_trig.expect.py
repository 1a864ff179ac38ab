"""Expectations of samples/inverse_trig.py: atan(x) + asin(x / 2) - acos(x / 2) / 4."""

from __future__ import annotations

import numpy as np

from e2e_support import f64, uniform
from expectations import SampleSpec


def ref_inverse_trig(x):
    v = f64(x)
    return ((np.arctan(v) + np.arcsin(v / 2) - np.arccos(v / 2) / 4).astype(x.dtype),)


SPEC = SampleSpec(
    name="inverse_trig",
    kernel="inverse_trig",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_inverse_trig,
    inputs={"x": uniform(-2.0, 2.0)},
    notes="atan, asin and acos through float32 arctan2 on bfloat16 blocks",
)
