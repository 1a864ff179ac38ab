"""Expectations of samples/bmm.py: inner (nested) tile loops."""

from __future__ import annotations

from e2e_support import f64, torch_promote
from expectations import PRODUCT_TOLERANCE, SampleSpec


def ref_bmm(A, B):
    return ((f64(A) @ f64(B)).astype(torch_promote(A.dtype, B.dtype)),)


SPEC = SampleSpec(
    name="bmm",
    kernel="bmm",
    # batch, m, n, then the inner k loop
    configs={"b1x8x128x128": (1, 8, 128, 128), "b2x32x128x256": (2, 32, 128, 256)},
    reference=ref_bmm,
    extra_shapes=("A=1x1x1:f32,B=1x1x1:f32", "A=3x9x130:bf16,B=3x130x17:bf16"),
    tolerance=PRODUCT_TOLERANCE,
    loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
    inner_dims=((3, "A", 2),),
)
