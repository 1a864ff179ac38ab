"""Expectations of samples/softplus.py: a bool parameter that selects a formula."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_softplus(x, beta, stable):
    # Both formulas are the same function; only their rounding differs.
    return ((np.logaddexp(0.0, beta * f64(x)) / beta).astype(x.dtype),)


SPEC = SampleSpec(
    name="softplus",
    kernel="softplus",
    configs={"b8x128": (8, 128), "b16x1024": (16, 1024)},
    reference=ref_softplus,
    scalars=({}, {"beta": 2.0}, {"stable": False}, {"beta": 0.5, "stable": False}),
    extra_shapes=("x=5:bf16", "x=2x3x4:f32", "x=2x3x8x300:bf16"),
)
