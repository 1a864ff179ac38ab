"""Expectations of samples/first_column_scale.py: computed in float32, stored in x's dtype."""

from __future__ import annotations

from e2e_support import f64, uniform
from expectations import SampleSpec


def ref_first_column_scale(x, scale):
    v = f64(x)
    return ((v / v[:, :1] * f64(scale)[0]).astype(x.dtype),)


SPEC = SampleSpec(
    name="first_column_scale",
    kernel="first_column_scale",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_first_column_scale,
    # rows start away from 0, so the division is well conditioned
    inputs={"x": uniform(0.5, 2.0), "scale": uniform(0.5, 2.0)},
    extra_shapes=("x=9x129:f32,scale=1:f32",),
)
