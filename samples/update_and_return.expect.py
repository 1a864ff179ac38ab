"""Expectations of samples/update_and_return.py."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec


def ref_row_sums(x, running):
    sums = f64(x).sum(-1)
    return (sums.astype(np.float32), (f64(running) + sums.astype(np.float32)).astype(running.dtype))


SPEC = SampleSpec(
    name="update_and_return",
    kernel="row_sums",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_row_sums,
    extra_shapes=("x=1x1:f32,running=1:f32",),
    tolerance=SUM_TOLERANCE,
)
