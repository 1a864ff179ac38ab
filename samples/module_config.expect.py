"""Expectations of samples/module_config.py."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import ALL_STRATEGIES, SUM_TOLERANCE, SampleSpec


def ref_scaled_row_sum(x):
    return ((f64(x).sum(-1) * 0.5).astype(np.float32),)


SPEC = SampleSpec(
    name="module_config",
    kernel="scaled_row_sum",
    # rows, then the inner loop's columns; the no-config default is the decorator's CONFIG
    configs={"b8x128": (8, 128), "b32x512": (32, 512)},
    reference=ref_scaled_row_sum,
    extra_shapes=("x=1x1:f32", "x=9x129:bf16"),
    tolerance=SUM_TOLERANCE,
    loop_types=ALL_STRATEGIES,
    inner_dims=((1, "x", 1),),
)
