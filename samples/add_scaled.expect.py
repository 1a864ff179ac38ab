"""Expectations of samples/add_scaled.py: float scalars with defaults."""

from __future__ import annotations

from e2e_support import f64
from expectations import SampleSpec


def ref_add_scaled(x, y, alpha, beta):
    # A Python float does not widen a tensor: the result keeps x's dtype.
    return ((alpha * f64(x) + beta * f64(y)).astype(x.dtype),)


SPEC = SampleSpec(
    name="add_scaled",
    kernel="add_scaled",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_add_scaled,
    scalars=({}, {"alpha": 2.0, "beta": -1.5}, {"alpha": -0.25}),
    extra_shapes=("x=7x5:f32,y=7x5:f32", "x=3:bf16,y=3:bf16", "x=2x2x8x256:f32,y=2x2x8x256:f32"),
)
