"""Expectations of samples/split_k_matmul.py."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import PRODUCT_TOLERANCE, SampleSpec


def ref_split_k_matmul(x, y):
    return ((f64(x) @ f64(y)).astype(np.float32),)


SPEC = SampleSpec(
    name="split_k_matmul",
    kernel="split_k_matmul",
    configs={"s256b8x128x128": (256, 8, 128, 128), "s512b64x256x256": (512, 64, 256, 256)},
    reference=ref_split_k_matmul,
    extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x300:bf16,y=300x129:bf16"),
    tolerance=PRODUCT_TOLERANCE,
    loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
    # The inner loop's bounds are the outer slice's: no fixed-length grid axis.
    refused_loop_types=(("grid",),),
    inner_dims=((3, "x", 1),),
    simulator_call="x=16x512:f32,y=512x128:f32",
    notes="hl.atomic_add from the steps of K slices: revisited output block",
)
