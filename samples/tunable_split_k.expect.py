"""Expectations of samples/tunable_split_k.py."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import PRODUCT_TOLERANCE, SampleSpec


def ref_tunable_split_k(x, y):
    # The number of K slices (an `hl.register_tunable` key) does not change the product.
    return ((f64(x) @ f64(y)).astype(np.float32),)


SPEC = SampleSpec(
    name="tunable_split_k",
    kernel="tunable_split_k",
    configs={"b8x128x128": (8, 128, 128), "b64x256x256": (64, 256, 256)},
    reference=ref_tunable_split_k,
    extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x300:bf16,y=300x129:bf16"),
    tolerance=PRODUCT_TOLERANCE,
    loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
    refused_loop_types=(("grid",),),
    inner_dims=((2, "x", 1),),
    simulator_call="x=16x512:f32,y=512x128:f32",
    notes="hl.register_tunable (k_slices, default 2) sizing the K slices; other values: test_tunables.py",
)
