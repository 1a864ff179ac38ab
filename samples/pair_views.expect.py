"""Expectations of samples/pair_views.py: the mean of adjacent column pairs, in float32, cast back
to x's dtype.
"""

from __future__ import annotations

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_pair_views(x):
    v = f64(x)
    return ((v.reshape(v.shape[0], 32, 2).sum(-1) * 0.5).astype(x.dtype),)


SPEC = SampleSpec(
    name="pair_views",
    kernel="pair_views",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_pair_views,
    extra_shapes=("x=1x64:f32", "x=9x64:bf16"),
    tolerance={BFLOAT16: (1e-2, 2e-2)},
    notes="reshape splitting a whole axis into literal sizes",
    inner_dims=((0, "x", 0),),  # the tiled rows (the columns are whole)
)
