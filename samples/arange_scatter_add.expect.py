"""Expectations of samples/arange_scatter_add.py: float32 column sums, rounded to x's dtype at
out[16:] (one block of rows at a time: a bf16 out rounds once per block), exactly at spread[::2].
"""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SUM_TOLERANCE, SampleSpec


def ref_arange_scatter_add(x):
    m, n = x.shape
    sums = f64(x).sum(axis=0)
    out = np.zeros(n + 16)
    out[16:] = sums
    spread = np.zeros(2 * n)
    spread[::2] = sums
    return (out.astype(x.dtype), spread.astype(np.float32))


SPEC = SampleSpec(
    name="arange_scatter_add",
    kernel="arange_scatter_add",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_arange_scatter_add,
    extra_shapes=("x=1x1:f32", "x=9x130:f32", "x=20x7:bf16"),
    tolerance={**SUM_TOLERANCE, BFLOAT16: (5e-2, 2e-1)},
    notes="hl.atomic_add at hl.arange(16, n + 16) and hl.arange(0, 2 * n, step=2) from every step",
)
