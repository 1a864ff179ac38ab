"""Expectations of samples/shape_splat.py."""

from __future__ import annotations

from e2e_support import f64, torch_promote
from expectations import SampleSpec


def ref_add_plane(x, y):
    return ((f64(x) + f64(y)).astype(torch_promote(x.dtype, y.dtype)),)


SPEC = SampleSpec(
    name="shape_splat",
    kernel="add_plane",
    configs={"b1x8x128": (1, 8, 128), "b2x16x256": (2, 16, 256)},
    reference=ref_add_plane,
    extra_shapes=("x=1x1x1:f32,y=1x1:f32", "x=2x7x5:bf16,y=7x5:bf16"),
)
