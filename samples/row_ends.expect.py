"""Expectations of samples/row_ends.py: ones, the last column the row sums, then column 0 three
times x[:, 0] (the second store wins where n == 1).
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec


def ref_row_ends(x):
    out = np.ones(x.shape)
    out[:, -1] = f64(x).sum(axis=1)
    out[:, 0] = 3 * f64(x)[:, 0]
    return (out.astype(x.dtype),)


SPEC = SampleSpec(
    name="row_ends",
    kernel="row_ends",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_row_ends,
    extra_shapes=("x=1x1:f32", "x=9x5:f32", "x=7x129:bf16"),
    tolerance=SUM_TOLERANCE,
    notes="stores at two columns of tiled rows: rows whole in the block, old contents kept",
)
