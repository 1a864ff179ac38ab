"""Expectations of samples/unpack_one.py."""

from __future__ import annotations

from e2e_support import f64
from expectations import SampleSpec


def ref_scaled_copy(x, scale=2.0):
    return ((f64(x) * scale).astype(x.dtype),)


SPEC = SampleSpec(
    name="unpack_one",
    kernel="scaled_copy",
    configs={"b128": (128,), "b1024": (1024,)},
    reference=ref_scaled_copy,
    scalars=({}, {"scale": -0.5}),
    extra_shapes=("x=1:f32", "x=129:bf16"),
    returns_tuple=True,
)
