"""Expectations of samples/viewed_row_sum.py: row-wise reductions kept whole in VMEM."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec


def ref_viewed_row_sum(x_in):
    return (f64(x_in).sum(axis=-1).astype(np.float32),)  # float32 accumulator and result


SPEC = SampleSpec(
    name="viewed_row_sum",
    kernel="viewed_row_sum",
    configs={"b8": (8,), "b64": (64,)},
    reference=ref_viewed_row_sum,
    extra_shapes=("x_in=1x1x1:f32", "x_in=2x3x9x129:bf16"),
    tolerance=SUM_TOLERANCE,
    notes="an allocation axis named by a specialised size of a trace-time-rank tensor; "
    "a slice of its shape on the host",
)
