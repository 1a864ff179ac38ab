"""Expectations of samples/prefix_scans.py: scans of each row in float32, stored in x's dtype."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_prefix_scans(x):
    row = f64(x.astype(np.float32))
    high, low = np.maximum.accumulate(row, axis=1), np.minimum.accumulate(row, axis=1)
    outputs = (
        np.cumsum(row, axis=1),
        np.cumsum(row[:, ::-1], axis=1)[:, ::-1],
        np.cumprod(1.0 + 0.01 * row, axis=1),
        high,
        high - low,
    )
    return tuple(out.astype(x.dtype) for out in outputs)


SPEC = SampleSpec(
    name="prefix_scans",
    kernel="prefix_scans",
    configs={"b8": (8,), "b16": (16,)},
    reference=ref_prefix_scans,
    extra_shapes=("x=1x1:f32", "x=9x7:f32", "x=3x129:f32"),
)
