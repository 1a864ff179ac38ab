"""Expectations of samples/fixed_row_windows.py: constant windows of a loaded block."""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_fixed_row_windows(x):
    v = f64(x)
    acc = np.zeros((1, 2, 128))
    for start in range(0, v.shape[0], 4):
        block = v[start : start + 4]
        acc += block[1, :, :128] + block[1:3, :, 128:256].sum(0) + block[:, 0, 64:192].sum(0)
    return (acc.astype(np.float32),)


SPEC = SampleSpec(
    name="fixed_row_windows",
    kernel="fixed_row_windows",
    configs={"none": ()},
    reference=ref_fixed_row_windows,
    extra_shapes=("x=4x2x256:f32", "x=12x2x300:f32"),
    loop_types=(("grid",), ("unroll",), ("emit_pipeline",), ("fori_loop",)),
    tolerance={BFLOAT16: (1e-2, 5e-2)},
)
