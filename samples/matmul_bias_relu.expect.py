"""Expectations of samples/matmul_bias_relu.py: inner (nested) tile loops."""

from __future__ import annotations

import numpy as np

from e2e_support import f64, torch_promote
from expectations import PRODUCT_TOLERANCE, SampleSpec


def ref_matmul_bias_relu(x, y, bias):
    dtype = torch_promote(x.dtype, y.dtype)
    return (np.maximum(f64(x) @ f64(y) + f64(bias), 0.0).astype(dtype),)


SPEC = SampleSpec(
    name="matmul_bias_relu",
    kernel="matmul_bias_relu",
    configs={"b8x128x128": (8, 128, 128), "b32x256x256": (32, 256, 256)},
    reference=ref_matmul_bias_relu,
    extra_shapes=("x=1x1:f32,y=1x1:f32,bias=1:f32", "x=9x130:bf16,y=130x129:bf16,bias=129:bf16"),
    tolerance=PRODUCT_TOLERANCE,
    loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
    inner_dims=((2, "x", 1),),
)
