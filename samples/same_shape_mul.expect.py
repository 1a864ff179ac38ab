"""Expectations of samples/same_shape_mul.py."""

from __future__ import annotations

import numpy as np

from expectations import SampleSpec


def ref_same_shape_mul(a, b):
    # one product per element, rounded once to the inputs' dtype
    product = np.asarray(a).astype(np.float64) * np.asarray(b).astype(np.float64)
    return (product.astype(np.asarray(a).dtype),)


SPEC = SampleSpec(
    name="same_shape_mul",
    kernel="same_shape_mul",
    configs={"b8x128": (8, 128), "b2x8x256": (2, 8, 256)},
    reference=ref_same_shape_mul,
    extra_shapes=("a=7:f32,b=7:f32", "a=3x9x129:f32,b=3x9x129:f32"),
)
