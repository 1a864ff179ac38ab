"""Expectations of samples/column_gemv.py: w @ v in float32."""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_column_gemv(w, v):
    return ((f64(w) @ f64(v)).astype(np.float32),)


SPEC = SampleSpec(
    name="column_gemv",
    kernel="column_gemv",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_column_gemv,
    extra_shapes=("w=1x1:f32,v=1x1:f32", "w=9x130:bf16,v=130x1:bf16"),
    tolerance={BFLOAT16: (2e-2, 5e-2)},
    loop_types=(("unroll",), ("grid",), ("fori_loop",), ("emit_pipeline",)),
    inner_dims=((1, "w", 1),),
    notes="a carried [tile, 1] accumulating [tile, v.size(1)]: v.size(1) checked to be 1",
)
