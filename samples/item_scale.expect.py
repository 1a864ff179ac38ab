"""Expectations of samples/item_scale.py: x * scale + bias[-1] in float32, cast to x's dtype."""

from __future__ import annotations

from e2e_support import f64, uniform
from expectations import SampleSpec


def ref_item_scale(x, scale, bias):
    return ((f64(x) * float(scale) + float(bias[-1])).astype(x.dtype),)


SPEC = SampleSpec(
    name="item_scale",
    kernel="item_scale",
    configs={"b8x128": (8, 128), "b16x256": (16, 256)},
    reference=ref_item_scale,
    inputs={"scale": uniform(0.5, 2.0), "bias": uniform(-1.0, 1.0)},
    extra_shapes=("x=9x130:f32,scale=:f32,bias=2:f32", "x=1x1:bf16,scale=:f32,bias=1:f32"),
    notes="`.item()` values read only in device code: loaded in the kernel",
)
