"""Expectations of samples/matmul_layernorm.py: inner (nested) tile loops."""

from __future__ import annotations

import numpy as np

from e2e_support import f64, torch_promote
from expectations import PRODUCT_TOLERANCE, SampleSpec


def ref_matmul_layernorm(x, y, weight, bias, eps=1e-5):
    acc = f64(x) @ f64(y)
    mean = acc.mean(axis=-1, keepdims=True)
    var = ((acc - mean) ** 2).mean(axis=-1, keepdims=True)  # correction=0
    out = (acc - mean) / np.sqrt(var + eps) * f64(weight) + f64(bias)
    return (out.astype(torch_promote(x.dtype, y.dtype)),)


SPEC = SampleSpec(
    name="matmul_layernorm",
    kernel="matmul_layernorm",
    # rows, then the inner loop's k; n is kept whole
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_matmul_layernorm,
    extra_shapes=("x=1x1:f32,y=1x3:f32,weight=3:f32,bias=3:f32", "x=9x130:bf16,y=130x129:bf16,weight=129:bf16,bias=129:bf16"),
    # float32: the normalised values are O(1) and carry the matmul's float32 rounding
    # divided by the row's standard deviation
    tolerance=PRODUCT_TOLERANCE,
    loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
    inner_dims=((1, "x", 1),),
)
