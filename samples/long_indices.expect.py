"""Expectations of samples/long_indices.py: int64 taken as int32 (the argmax indices come back as
int32).
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec, ref_rand


def ref_long_indices(x, seed=7):
    m = x.shape[0]
    first = np.argmax(f64(x), axis=1).astype(np.int32)
    return (first, ref_rand(2 * np.arange(m) + 1, seed))


SPEC = SampleSpec(
    name="long_indices",
    kernel="long_indices",
    configs={"b8": (8,), "b128": (128,)},
    reference=ref_long_indices,
    scalars=({}, {"seed": 99}),
    extra_shapes=("x=1x1:f32", "x=9x7:f32"),
)
