"""Expectations of samples/matmul_whole_k.py: a matrix product with the contracted dimension kept
whole (the shared ref_matmul).
"""

from __future__ import annotations

from expectations import PRODUCT_TOLERANCE, SampleSpec, ref_matmul


SPEC = SampleSpec(
    name="matmul_whole_k",
    kernel="matmul",
    configs={"b8x128": (8, 128), "b64x256": (64, 256)},
    reference=ref_matmul,
    extra_shapes=("x=1x1:f32,y=1x1:f32", "x=7x5:bf16,y=5x3:bf16", "x=9x130:f32,y=130x129:f32"),
    tolerance=PRODUCT_TOLERANCE,
)
