"""Expectations of samples/foreign_acc.py: a @ b accumulated in float32, plus c."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import ALL_STRATEGIES, PRODUCT_TOLERANCE, SampleSpec


def ref_foreign_acc(a, b, c):
    return ((f64(a) @ f64(b) + f64(c)).astype(np.float32),)


SPEC = SampleSpec(
    name="foreign_acc",
    kernel="foreign_acc",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_foreign_acc,
    extra_shapes=("a=1x1:f32,b=1x1:f32,c=1x1:f32", "a=9x130:bf16,b=130x17:bf16,c=9x17:f32"),
    tolerance=PRODUCT_TOLERANCE,
    loop_types=ALL_STRATEGIES,
    notes="an accumulator sized by another tensor's axis than the product's",
    inner_dims=((1, "a", 1),),
)
