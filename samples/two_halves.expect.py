"""Expectations of samples/two_halves.py: zeros; twice x on the first half, y - 1 on the second (n
// 2 each).
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_two_halves(x, y):
    half = x.shape[0] // 2
    out = np.zeros(x.shape)
    out[:half] = 2 * f64(x)[:half]
    out[half : 2 * half] = f64(y)[half : 2 * half] - 1
    return (out.astype(x.dtype),)


SPEC = SampleSpec(
    name="two_halves",
    kernel="two_halves",
    configs={"b128": (128,), "b256": (256,)},
    reference=ref_two_halves,
    extra_shapes=("x=2:f32,y=2:f32", "x=3:f32,y=3:f32", "x=9:bf16,y=9:bf16"),
    notes="a tile and a shifted tile of indices on one axis: both stores scatter",
)
