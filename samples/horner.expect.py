"""Expectations of samples/horner.py: Horner's scheme in float32 with coefficients 1, 2, ..., degree
+ 1.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_horner(x, degree=3):
    v = f64(x)
    acc = np.ones_like(v)
    for i in range(1, degree + 1):
        acc = acc * v + (i + 1)
    return (acc.astype(x.dtype),)


SPEC = SampleSpec(
    name="horner",
    kernel="horner",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_horner,
    scalars=({}, {"degree": 1}, {"degree": 5}),
    extra_shapes=("x=1x1:f32", "x=9x129:bf16"),
)
