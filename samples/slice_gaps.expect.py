"""Expectations of samples/slice_gaps.py: ones; twice x in the first 16 columns; x from column 32 on
if fill_tail.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_slice_gaps(x, fill_tail=True):
    out = np.ones(x.shape)
    out[:, :16] = 2 * f64(x)[:, :16]
    if fill_tail:
        out[:, 32:] = f64(x)[:, 32:]
    return (out.astype(x.dtype),)


SPEC = SampleSpec(
    name="slice_gaps",
    kernel="slice_gaps",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_slice_gaps,
    scalars=({"fill_tail": True}, {"fill_tail": False}),
    extra_shapes=("x=1x1:f32", "x=9x20:f32", "x=7x40:bf16"),
    notes="sliced stores that leave a gap (or, unless fill_tail, a tail): old contents kept",
)
