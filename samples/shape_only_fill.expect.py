"""Expectations of samples/shape_only_fill.py: a launch that takes no array."""

from __future__ import annotations

import numpy as np

from expectations import SampleSpec


def ref_shape_only_fill(x):
    rows, cols = x.shape
    row = np.arange(rows, dtype=np.float64)[:, None] + 0.5
    return (np.broadcast_to(row, (rows, cols)).astype(x.dtype),)


SPEC = SampleSpec(
    name="shape_only_fill",
    kernel="shape_only_fill",
    configs={"b8x128": (8, 128), "b64x256": (64, 256)},
    reference=ref_shape_only_fill,
    extra_shapes=("x=7x5:f32", "x=33x130:f16", "x=32x128:i32"),
)
