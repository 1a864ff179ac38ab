"""Expectations of samples/live_row_if.py: an `if` on a device scalar around windows."""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_live_row_if(x):
    v = f64(x)
    acc = np.zeros((1, 2, 128))
    for start in range(0, v.shape[0], 4):
        live = min(4, v.shape[0] - start)
        if live >= 3:
            acc += v[start : start + live].sum(0) + 0.5 * v[start + live - 3 : start + live].sum(0)
    return (acc.astype(np.float32),)


SPEC = SampleSpec(
    name="live_row_if",
    kernel="live_row_if",
    configs={"none": ()},
    reference=ref_live_row_if,
    extra_shapes=("x=5x2x128:f32", "x=3x2x128:f32", "x=2x2x128:f32"),
    loop_types=(("grid", "unroll"), ("unroll", "unroll")),
    tolerance={BFLOAT16: (1e-2, 5e-2)},
)
