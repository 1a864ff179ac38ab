"""Expectations of samples/head_projection.py: hl.dot of a 2-D tile with a 3-D one (broadcast over
the batch).
"""

from __future__ import annotations

from e2e_support import f64
from expectations import ALL_STRATEGIES, PRODUCT_TOLERANCE, SampleSpec


def ref_head_projection(x, w):
    return ((f64(x)[None] @ f64(w)).astype(x.dtype),)


SPEC = SampleSpec(
    name="head_projection",
    kernel="head_projection",
    # heads, m, d, then the inner k loop
    configs={"b1x8x128x128": (1, 8, 128, 128), "b2x32x128x256": (2, 32, 128, 256)},
    reference=ref_head_projection,
    extra_shapes=("x=1x1:f32,w=1x1x1:f32", "x=9x130:bf16,w=3x130x17:bf16"),
    tolerance=PRODUCT_TOLERANCE,
    loop_types=ALL_STRATEGIES,
    inner_dims=((3, "x", 1),),
)
