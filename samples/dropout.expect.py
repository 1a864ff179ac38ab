"""Expectations of samples/dropout.py."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec, ref_rand


def ref_dropout(x, p=0.5, seed=0):
    m, n = x.shape
    draw = ref_rand(np.arange(m * n).reshape(m, n), seed)
    keep = (draw >= p).astype(np.float32)
    return ((f64(x) * keep / (1.0 - p)).astype(x.dtype), keep)


SPEC = SampleSpec(
    name="dropout",
    kernel="dropout",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_dropout,
    # A seed above 2**32 sets the key's second word; a negative one is two's complement.
    scalars=({}, {"p": 0.25, "seed": 7}, {"p": 0.9, "seed": 2**40 + 5}, {"seed": -3}),
    extra_shapes=("x=1x1:f32", "x=9x130:f32"),
    notes="hl.rand: the same Philox numbers for every block size",
)
