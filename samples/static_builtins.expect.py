"""Expectations of samples/static_builtins.py."""

from __future__ import annotations

from e2e_support import f64
from expectations import SampleSpec


def ref_first_columns(x, limit=256, scale=-2.7):
    cols = min(x.shape[1], limit, 4096)
    return ((f64(x[:, :cols]) * abs(int(scale))).astype(x.dtype),)


SPEC = SampleSpec(
    name="static_builtins",
    kernel="first_columns",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_first_columns,
    # limits below, at and above the lane multiple: a loop over part of x's lane axis gets a
    # block legal for x's axis and for out's (passes::differing_axes)
    # (cycled over the shapes: 256x1024 gets 200, 200x300 gets 64)
    scalars=({"limit": 200}, {"limit": 64}, {}, {"limit": 128, "scale": 3.5}, {"limit": 100000}),
    extra_shapes=("x=1x1:f32", "x=7x5:bf16"),
)
