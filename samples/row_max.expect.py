"""Expectations of samples/row_max.py: row-wise reductions kept whole in VMEM."""

from __future__ import annotations

import numpy as np

from e2e_support import f64, uniform
from expectations import SampleSpec


def ref_row_max(x):
    v = f64(x)
    # torch.max(dim) breaks ties towards the first index, as np.argmax does
    return v.max(axis=-1).astype(x.dtype), np.argmax(v, axis=-1).astype(np.int32), v.min(axis=-1).astype(x.dtype)


SPEC = SampleSpec(
    name="row_max",
    kernel="row_max",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_row_max,
    # all-negative rows: a padding 0 must never be the maximum
    inputs={"x": uniform(-4.0, -0.5)},
    extra_shapes=("x=1x1:f32", "x=9x129:bf16"),
)
