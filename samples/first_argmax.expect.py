"""Expectations of samples/first_argmax.py: the label at each row's first largest value, sums of
squares, products.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_first_argmax(x, labels):
    first = np.argmax(x, axis=1)  # numpy's argmax is the first on ties, as the combine keeps
    best = np.take_along_axis(x, first[:, None], axis=1)[:, 0]
    where = np.take_along_axis(labels, first[:, None], axis=1)[:, 0].astype(np.int32)
    wide = f64(x.astype(np.float32))
    squares = (wide * wide).sum(axis=1, keepdims=True).astype(np.float32)
    product = np.prod(1.0 + 0.01 * wide, axis=1).astype(np.float32)
    return (best, where, squares, product)


def small_integers(rng: np.random.Generator, shape, dtype: np.dtype) -> np.ndarray:
    """Integers 0..7 as floats: rows with repeated maxima (first_argmax's ties)."""
    return rng.integers(0, 8, size=shape).astype(dtype)


SPEC = SampleSpec(
    name="first_argmax",
    kernel="first_argmax",
    configs={"b8": (8,), "b16": (16,)},
    reference=ref_first_argmax,
    inputs={"x": small_integers},
    extra_shapes=("x=1x1:f32,labels=1x1:i32", "x=9x7:f32,labels=9x7:i32"),
)
