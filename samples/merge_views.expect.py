"""Expectations of samples/merge_views.py: the 128 elements of each row as 2 halves of 64, less each
half's maximum, plus the second half.
"""

from __future__ import annotations

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_merge_views(x):
    halves = f64(x).reshape(x.shape[0], 2, 64)
    out = halves - halves.max(axis=-1, keepdims=True) + halves[:, 1:2, :]
    return (out.astype(x.dtype),)


SPEC = SampleSpec(
    name="merge_views",
    kernel="merge_views",
    configs={"b8": (8,), "b16": (16,)},
    reference=ref_merge_views,
    extra_shapes=("x=1x128x1:f32", "x=9x8x16:bf16"),
    tolerance={BFLOAT16: (2e-2, 5e-2)},
    notes="reshape merging whole axes and splitting with a literal -1",
    inner_dims=((0, "x", 0),),  # the tiled rows (the other axes are whole)
)
