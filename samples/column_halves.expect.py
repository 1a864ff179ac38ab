"""Expectations of samples/column_halves.py: bounded slices of tensors; out = zeros_like(x), the
split at n // 2, computed in x's dtype.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_column_halves(x):
    v = f64(x)
    half = x.shape[1] // 2
    out = np.concatenate([v[:, :half] * 2.0, v[:, half:] + 1.0], axis=1)
    return (out.astype(x.dtype),)


SPEC = SampleSpec(
    name="column_halves",
    kernel="column_halves",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_column_halves,
    extra_shapes=("x=1x1:f32", "x=9x129:f32"),
)
