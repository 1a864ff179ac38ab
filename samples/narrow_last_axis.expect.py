"""Expectations of samples/narrow_last_axis.py: (2 x + 2 y, -x / 2 + 2 y) along a new last axis."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_narrow_last_axis(x, y):
    a, b = f64(x), f64(y)
    return (np.stack([2 * a + 2 * b, -0.5 * a + 2 * b], axis=-1).astype(x.dtype),)


SPEC = SampleSpec(
    name="narrow_last_axis",
    kernel="narrow_last_axis",
    configs={"b16x128": (16, 128), "b32x256": (32, 256)},
    reference=ref_narrow_last_axis,
    notes="16-bit values stacked and unsqueezed along a new last axis: through 32 bits before v6",
)
