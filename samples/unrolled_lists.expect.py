"""Expectations of samples/unrolled_lists.py: the lists as Python makes them, summed in float32
order-free (float64).
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_unrolled_lists(x, y):
    xv, yv = f64(x.astype(np.float32)), f64(y.astype(np.float32))
    acc = np.zeros_like(xv)
    for w in [w * 0.5 for w in (1, 2, 3)]:
        acc += xv * w
    for a, b in [(1, 2), (3, -1)]:
        acc += a * xv - b * yv
    for s in (1, 2, 3):
        acc += xv * s
    for c in [p * q for p in (1, 2) for q in (3, -1)]:
        acc += c * yv
    acc += xv + yv
    for i, m in enumerate((2, 3)):
        acc += (i * m) * yv
    factors = {k: k * 2 for k in range(1, 3)}
    acc += xv * factors[2] - yv * factors[1] + 0.5 * xv
    return (acc.astype(x.dtype),)


SPEC = SampleSpec(
    name="unrolled_lists",
    kernel="unrolled_lists",
    configs={"b128": (128,), "b1024": (1024,)},
    reference=ref_unrolled_lists,
    extra_shapes=("x=1:f32,y=1:f32", "x=129:bf16,y=129:bf16"),
    notes="comprehensions, list()/tuple(), for over bound lists, enumerate of a literal, a dict",
)
