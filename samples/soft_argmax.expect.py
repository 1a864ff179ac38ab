"""Expectations of samples/soft_argmax.py: sum over columns of softmax(row) * column index, in
float32.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec, log_softmax64


def ref_soft_argmax(x):
    return ((np.exp(log_softmax64(f64(x))) * np.arange(x.shape[-1])).sum(axis=-1).astype(np.float32),)


SPEC = SampleSpec(
    name="soft_argmax",
    kernel="soft_argmax",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_soft_argmax,
    extra_shapes=("x=1x1:f32", "x=9x129:bf16"),
    # values up to the row length (~1000): an f32 sum of that many weighted positions
    tolerance={np.dtype(np.float32): (1e-5, 1e-3)},
)
