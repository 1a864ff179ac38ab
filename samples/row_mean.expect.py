"""Expectations of samples/row_mean.py: row-wise reductions kept whole in VMEM."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_row_mean(x):
    return (f64(x).mean(axis=1, keepdims=True).astype(np.float32),)  # rows widened first


SPEC = SampleSpec(
    name="row_mean",
    kernel="row_mean",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_row_mean,
    extra_shapes=("x=9x129:bf16",),
)
