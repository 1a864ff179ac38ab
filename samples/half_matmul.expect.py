"""Expectations of samples/half_matmul.py: 16-bit operands cast to float16 (exactly for these
inputs), the product and the scale rounded once to float16 (the module accumulates at float32
precision).
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_half_matmul(x, y, scale=1.0):
    return (((f64(x.astype(np.float16)) @ f64(y.astype(np.float16))) * scale).astype(np.float16),)


SPEC = SampleSpec(
    name="half_matmul",
    kernel="half_matmul",
    configs={"b8x128x128": (8, 128, 128), "b64x256x256": (64, 256, 256)},
    reference=ref_half_matmul,
    scalars=({}, {"scale": 0.5}),
    extra_shapes=("x=1x1:f16,y=1x1:f16", "x=9x130:bf16,y=130x129:f16"),
    dtypes=("float16", "bfloat16"),
    notes="float16 casts, accumulator (its scratch) and result in a kernel",
    loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
    inner_dims=((2, "x", 1),),
)
