"""Expectations of samples/add_inplace.py."""

from __future__ import annotations

from e2e_support import f64
from expectations import SampleSpec


def ref_add_inplace(x, y):
    # The updated x: the module returns it (JAX arrays are immutable).
    return ((f64(x) + f64(y)).astype(x.dtype),)


SPEC = SampleSpec(
    name="add_inplace",
    kernel="add_inplace",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_add_inplace,
    extra_shapes=("x=1x1:f32,y=1x1:f32", "x=7x5:bf16,y=7x5:bf16"),
)
