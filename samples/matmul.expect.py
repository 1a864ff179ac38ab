"""Expectations of samples/matmul.py: a matrix product with an inner loop over K (the shared
ref_matmul).
"""

from __future__ import annotations

from expectations import PRODUCT_TOLERANCE, SampleSpec, ref_matmul


SPEC = SampleSpec(
    name="matmul",
    kernel="matmul",
    configs={"b8x128x128": (8, 128, 128), "b64x256x256": (64, 256, 256)},
    reference=ref_matmul,
    extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x130:bf16,y=130x129:bf16"),
    tolerance=PRODUCT_TOLERANCE,
    loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
    inner_dims=((2, "x", 1),),
)
