"""Expectations of samples/weighted_taps.py: sum_j w[j] * x[i + j], zeros past x's end, in float32
cast to x's dtype.
"""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_weighted_taps(x, w):
    n, taps = x.shape[0], w.shape[0]
    padded = np.concatenate([f64(x), np.zeros(taps)])
    return (sum(f64(w)[j] * padded[j : j + n] for j in range(taps)).astype(x.dtype),)


SPEC = SampleSpec(
    name="weighted_taps",
    kernel="weighted_taps",
    configs={"b256": (256,), "b1024": (1024,)},
    reference=ref_weighted_taps,
    extra_shapes=("x=1:f32,w=1:f32", "x=130:bf16,w=2:bf16"),
    tolerance={BFLOAT16: (2e-2, 1e-1)},
    notes="w[j] of an hl.static_range index, read from SMEM",
)
