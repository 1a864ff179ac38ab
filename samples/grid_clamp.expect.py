"""Expectations of samples/grid_clamp.py."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_grid_clamp(values, lo=-0.5, hi=0.5):
    return (np.clip(f64(values), lo, hi).astype(values.dtype),)


SPEC = SampleSpec(
    name="grid_clamp",
    kernel="grid_clamp",
    configs={"none": ()},
    reference=ref_grid_clamp,
    scalars=({}, {"lo": 0.0, "hi": 2.0}),
    extra_shapes=("values=1:f32",),
    notes="min/max of 0-d values read in an hl.grid loop",
)
