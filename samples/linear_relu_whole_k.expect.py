"""Expectations of samples/linear_relu_whole_k.py: matrix products with the contracted dimension
kept whole.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import PRODUCT_TOLERANCE, SampleSpec


def ref_linear_relu(x, w, bias):
    return (np.maximum(f64(x) @ f64(w).T + f64(bias), 0.0).astype(x.dtype),)


SPEC = SampleSpec(
    name="linear_relu_whole_k",
    kernel="linear_relu",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_linear_relu,
    extra_shapes=("x=1x1:f32,w=1x1:f32,bias=1:f32", "x=9x130:bf16,w=129x130:bf16,bias=129:bf16"),
    tolerance=PRODUCT_TOLERANCE,
)
