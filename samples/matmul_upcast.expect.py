"""Expectations of samples/matmul_upcast.py: matrix products with the contracted dimension kept
whole.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import PRODUCT_TOLERANCE, SampleSpec


def ref_matmul_upcast(x, y):
    return ((f64(x) @ f64(y)).astype(np.float32),)


SPEC = SampleSpec(
    name="matmul_upcast",
    kernel="matmul_upcast",
    configs={"b8x128x128": (8, 128, 128), "b64x256x256": (64, 256, 256)},
    reference=ref_matmul_upcast,
    extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x130:bf16,y=130x129:bf16"),
    tolerance=PRODUCT_TOLERANCE,
    loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
    inner_dims=((2, "x", 1),),
)
