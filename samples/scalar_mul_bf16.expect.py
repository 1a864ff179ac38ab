"""Expectations of samples/scalar_mul_bf16.py: `x * scale` in x's dtype, computed with the Python
float unrounded (PyTorch's opmath) and rounded once; then widened exactly to float32.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_scale_bf16(x, scale=0.18033688):
    return ((f64(x) * scale).astype(x.dtype).astype(np.float32),)


SPEC = SampleSpec(
    name="scalar_mul_bf16",
    kernel="scale_bf16",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_scale_bf16,
    scalars=({}, {"scale": 0.3}),
)
