"""Expectations of samples/int8_matmul.py: the int32 product exact, then scaled in float32."""

from __future__ import annotations

import numpy as np

from e2e_support import uniform
from expectations import SampleSpec


def ref_int8_matmul(x, y, x_scale, y_scale):
    product = (x.astype(np.int64) @ y.astype(np.int64)).astype(np.float32)
    return ((product * (x_scale[:, None] * y_scale[None, :])).astype(np.float32),)


SPEC = SampleSpec(
    name="int8_matmul",
    kernel="int8_matmul",
    # 8 rows of int8 become 32 (Mosaic's 8-bit tile)
    configs={"b8x128x128": (8, 128, 128), "b64x256x256": (64, 256, 256)},
    reference=ref_int8_matmul,
    inputs={"x_scale": uniform(0.5, 2.0), "y_scale": uniform(0.5, 2.0)},
    extra_shapes=("x=1x1:i8,y=1x1:i8,x_scale=1:f32,y_scale=1:f32",
                  "x=33x130:i8,y=130x129:i8,x_scale=33:f32,y_scale=129:f32"),
    dtypes=("int8", "float32"),
    notes="hl.dot of int8 operands into an int32 accumulator; 8-bit blocks of 32 rows",
    loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
    inner_dims=((2, "x", 1),),
)
