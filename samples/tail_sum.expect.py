"""Expectations of samples/tail_sum.py: bounded slices of tensors."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import ALL_STRATEGIES, SUM_TOLERANCE, SampleSpec


def ref_tail_sum(x):
    return (f64(x)[:, :, 1:].sum(axis=(1, 2)).astype(np.float32),)


SPEC = SampleSpec(
    name="tail_sum",
    kernel="tail_sum",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_tail_sum,
    extra_shapes=("x=1x1x2:f32", "x=9x129x3:f32", "x=16x256x2:f32"),
    tolerance=SUM_TOLERANCE,
    loop_types=ALL_STRATEGIES,
    inner_dims=((1, "x", 1),),
)
