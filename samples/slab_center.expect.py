"""Expectations of samples/slab_center.py: reductions without `dim` over a whole slab."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec


def ref_slab_center(x, spread):
    v = f64(x)
    centered = v - v.mean(axis=(1, 2), keepdims=True)
    peak = np.abs(centered).max(axis=(1, 2), keepdims=True)
    share = (v > 0).mean(axis=(1, 2), keepdims=True)
    top = v.max(axis=(1, 2), keepdims=True)
    return ((centered / (peak + spread) + share + top).astype(np.float32),)


SPEC = SampleSpec(
    name="slab_center",
    kernel="slab_center",
    configs={"none": ()},
    reference=ref_slab_center,
    scalars=({}, {"spread": 2.0}),
    extra_shapes=("x=1x1x1:f32", "x=2x9x129:bf16"),
    tolerance=SUM_TOLERANCE,
)
